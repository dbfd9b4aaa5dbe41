"""`scorebox sync`: the box's matches into the store (pull.py), over the sync link or by mpremote (rescue.py)."""
