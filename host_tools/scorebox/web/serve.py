"""`scorebox serve`: the club's desk (web/app.py) on this PC, in a browser (docs/web.md)."""

import errno
import getpass
import ipaddress
import os
import socket
import sys

from scorebox.errors import ScoreboxError

PASSWORD_ENV = "SCOREBOX_PASSWORD"


def loopback(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def password_for(host):
    """None on loopback; beyond it the env var's password, or one typed now: never none."""
    if loopback(host):
        return None
    pw = os.environ.get(PASSWORD_ENV) or (getpass.getpass("password for the desk: ") if sys.stdin.isatty() else "")
    if not pw:
        raise ScoreboxError(
            "--host %s listens beyond this PC: set a password (%s, or type it when asked)" % (host, PASSWORD_ENV)
        )
    return pw


def listen(db, host="127.0.0.1", port=0, password=None, sim_state=None):
    """A server for the desk on host:port (0: a free one), not yet serving; its url."""
    from werkzeug.serving import make_server

    from scorebox.web.app import create_app

    if not 0 <= port <= 65535:
        raise ScoreboxError("--port %d: a port is 0 (any free one) to 65535" % port)
    # The socket made here, not by Werkzeug: its make_server prints a port in use in lines of
    # its own and exits (status 1) rather than raise.
    try:
        sock = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise ScoreboxError(
                "cannot listen on %s:%d: another program holds that port (a desk already running?): stop it, "
                "or choose another port with --port (0: any free one)" % (host, port)
            )
        raise ScoreboxError("cannot listen on %s:%d: %s" % (host, port, e.strerror or e))
    with sock:  # the server listens on a copy of it
        port = sock.getsockname()[1]
        server = make_server(host, port, None, threaded=True, fd=sock.fileno())
    if loopback(host):
        hosts = ("127.0.0.1", "localhost")
    elif host in ("0.0.0.0", "::"):  # every address of this PC: any name it is reached by (a password guards it)
        hosts = None
    else:
        hosts = (host,)
    server.app = create_app(db, hosts=hosts, port=port, password=password)
    server.app.config["SIM_STATE"] = sim_state
    return server, "http://%s:%d/" % ("127.0.0.1" if host == "localhost" else host, port)


def cmd_serve(args):
    server, url = listen(args.db, args.host, args.port, password_for(args.host), args.sim)
    print("the club's desk: %s (Ctrl-C stops it)" % url, flush=True)
    return serve(server, url, args.no_browser)


def serve(server, url, no_browser):
    """Open url in the browser (unless no_browser) and serve until Ctrl-C."""
    if not no_browser:
        import webbrowser

        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def add_parser(sub, parents=()):
    p = sub.add_parser("serve", help="the club's desk: the store's pages in a browser on this PC", parents=parents)
    p.add_argument("--db", help="store file (default: in your user data folder)")
    p.add_argument("--port", type=int, default=8024, help="port to listen on (default 8024; 0: any free one)")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1, this PC only; another asks for a password, %s)" % PASSWORD_ENV,
    )
    p.add_argument("--sim", metavar="STATE", help="the simulated box the Sync page offers (default: the sim's own)")
    p.add_argument("--no-browser", action="store_true", help="say the address, do not open a browser")
    p.set_defaults(run=cmd_serve)


def cmd_board(args):
    """`scorebox board ID`: the desk on this PC with the event's board open in the browser (F11:
    full screen); the event is looked up first, so a wrong id is one line, not a page."""
    from scorebox.events import rounds
    from scorebox.store.access import open_store

    with open_store(args.db) as s:
        rounds.load(s, args.id)
    server, url = listen(args.db, "127.0.0.1", args.port)
    url += "board/%d" % args.id
    print("the board of event %d: %s (F11 in the browser: full screen; Ctrl-C stops it)" % (args.id, url), flush=True)
    return serve(server, url, args.no_browser)


def add_board_parser(sub):
    p = sub.add_parser("board", help="an event's board for the range, in large type, in the browser")
    p.add_argument("id", metavar="ID", type=int, help="the event's id, as `scorebox event list` shows it")
    p.add_argument("--db", help="store file (default: in your user data folder)")
    p.add_argument("--port", type=int, default=8025, help="port to listen on (default 8025; 0: any free one)")
    p.add_argument("--no-browser", action="store_true", help="say the address, do not open a browser")
    p.set_defaults(run=cmd_board)
