"""What the desk's forms share: an uploaded file saved under a name the app makes, in its
own folder; a change said and the page it goes back to."""

import os
import secrets

from flask import current_app, flash, redirect, request

from scorebox.errors import ScoreboxError


def upload(field):
    """The uploaded file of a form's field, saved under a name the app makes."""
    f = request.files.get(field)
    if f is None or not f.filename:
        raise ScoreboxError("choose a file first")
    path = os.path.join(current_app.config["UPLOADS"], secrets.token_hex(16))
    try:
        f.save(path)
    except OSError as e:
        if os.path.exists(path):
            os.remove(path)
        raise ScoreboxError(no_room(e))
    return path


def done(message, to):
    flash(message, "ok")
    return redirect(to)


def no_room(e):
    """What a full disk (or a file-size limit) under an upload is, in words."""
    return "no room on this PC's disk to keep the upload (%s): free some space, then try again; nothing was changed" % (
        e.strerror or e
    )
