"""The user's data folder: where the store and the simulator's box are kept by default."""

import os


def data_path(name):
    """name in the user's data folder (platformdirs where installed)."""
    try:
        from platformdirs import user_data_dir

        base = user_data_dir("scorebox", appauthor=False)
    except ImportError:
        base = os.path.join(os.path.expanduser("~"), ".local", "share", "scorebox")
    return os.path.join(base, name)
