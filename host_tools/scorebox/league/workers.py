"""The league's server in worker processes: `scorebox serve --league` runs its Flask app
(league/server.py) under gunicorn, a production WSGI server. Every club of a league may
push at once, and a page's reads should not wait behind a push: each worker is a process of
its own with its own connections to PostgreSQL (a request's store, league/request_store.py),
and a few threads, so a slow client holds one thread, not the server.

The socket is bound before the workers start (server.bind: its one line when the port is
taken, port 0 for a free one, the address printed before the first request) and given to
gunicorn by its descriptor, which gunicorn owns from then on. gunicorn's own lines go to
standard error: its warnings and errors only (a worker that died, a request that timed
out), no line for each request.
"""

import os

from scorebox.errors import ScoreboxError

THREADS = 4  # a worker's threads: a push waits on PostgreSQL, its CPU is the server's
TIMEOUT = 120  # seconds a request may take before its worker is restarted: a push of 500 takes about 1


def default_count():
    """gunicorn's advice: two workers a core, and one more."""
    return 2 * (os.cpu_count() or 1) + 1


def serve(app, fd, count):
    """Serve app on the bound socket whose descriptor is fd with count worker processes until stopped (Ctrl-C,
    SIGTERM: the requests in hand are finished first); the exit status."""
    try:
        from gunicorn.app.base import BaseApplication
    except ImportError as e:  # gunicorn runs on a Unix only (Linux, macOS)
        raise ScoreboxError("the league's server needs gunicorn, which runs on Linux or macOS: %s" % e)

    class Server(BaseApplication):
        def load_config(self):
            settings = {
                "bind": ["fd://%d" % fd],
                "workers": count,
                "worker_class": "gthread",
                "threads": THREADS,
                "timeout": TIMEOUT,
                "loglevel": "warning",
                "accesslog": None,
                "proc_name": "scorebox-league",
            }
            for key, value in settings.items():
                self.cfg.set(key, value)

        def load(self):
            return app

    try:
        Server().run()
    except SystemExit as e:  # gunicorn's master leaves by sys.exit, 0 when stopped
        return e.code or 0
    return 0
