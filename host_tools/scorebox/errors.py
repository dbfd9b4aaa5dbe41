"""The one error the `scorebox` command reports: what went wrong, for the user.

Each layer's error derives from it (device.link.DeviceError, store.errors.StoreError,
sim.run.SimError ...); the CLI catches it once, prints its one line and exits with status 2.
"""


class ScoreboxError(Exception):
    """What went wrong, for the user: one line (str()), exit status 2."""
