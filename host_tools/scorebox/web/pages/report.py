"""The Report page: the club's HTML report (`scorebox report`) to view or download."""

from flask import Blueprint, current_app, render_template

from scorebox.report import html
from scorebox.web.request_store import store

bp = Blueprint("report", __name__)

# the report is one offline file with its own inline script and styles: framed by no one
CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'"


@bp.route("/report")
def report():
    return render_template("report.html.j2")


@bp.route("/report/view", defaults={"download": False})
@bp.route("/report/download", defaults={"download": True})
def report_page(download):
    page = html.render(html.build(store()), commands=False)  # the desk's pages, not the commands, make more of it
    resp = current_app.response_class(page, mimetype="text/html")
    resp.headers["Content-Security-Policy"] = CSP
    if download:
        resp.headers["Content-Disposition"] = "attachment; filename=scorebox-report.html"
    return resp
