"""`scorebox serve --league` runs the league's app in gunicorn's worker processes
(league/workers.py): the workers it says, two clubs' pushes taken at once, Ctrl-C stopping
master and workers; a count of workers that is no count refused in one line."""

import os
import re
import signal
import subprocess
import sys
import time

from leagueclubs import add_club, clubs, league_count

from scorebox import cli
from scorebox.commands import push

pytest_plugins = ("pgserver",)

CLI = [sys.executable, "-c", "import sys; from scorebox.cli import main; sys.exit(main())"]


def children(pid):
    """The pids of the processes whose parent is pid (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    stat = f.read()
            except OSError:
                continue  # gone since listed
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def wait_for(what, seconds=30):
    end = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < end, "not within %d s" % seconds
        time.sleep(0.1)


def test_two_clubs_push_at_once_to_its_worker_processes(pg_url, tmp_path, capsys):
    a, b = clubs(tmp_path)
    tokens = [add_club(capsys, pg_url, name) for name in ("Archers of A", "Bowmen of B")]
    server = subprocess.Popen(
        CLI + ["serve", "--league", "--db", pg_url, "--port", "0", "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        line = server.stdout.readline()
        assert "2 worker processes" in line, line
        address = line.split()[3]
        wait_for(lambda: len(children(server.pid)) == 2)
        pushes = [
            subprocess.Popen(
                CLI + ["push", address, "--db", club],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=dict(os.environ, **{push.TOKEN_ENV: token}),
            )
            for club, token in zip((a, b), tokens)
        ]
        said = [p.communicate(timeout=120) for p in pushes]
        assert [p.returncode for p in pushes] == [0, 0], said
        sent = [int(re.match(r"(\d+) new matches sent to the league", out).group(1)) for out, _ in said]
        assert sent[1] == 6 and sent[0] > 0, said
        assert league_count(pg_url) == sum(sent)
        workers = children(server.pid)
        server.send_signal(signal.SIGINT)  # Ctrl-C
        assert server.wait(timeout=60) == 0
        assert not any(os.path.exists("/proc/%d" % pid) for pid in workers)
        assert "Traceback" not in server.stderr.read()
    finally:
        server.kill()
        server.wait()


def test_a_count_of_workers_below_one_is_one_line(pg_url, capsys):
    assert cli.main(["serve", "--league", "--db", pg_url, "--port", "0", "--workers", "0"]) == 2
    err = capsys.readouterr().err
    assert err == "--workers: at least 1 worker process\n", err
