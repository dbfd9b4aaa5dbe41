"""The box over USB: the serial link (link.py), deploying firmware (deploy.py) and checking a box (doctor.py)."""
