"""What MicroPython has and CPython lacks, for the firmware's modules run on CPython (tests,
the PC): `const`. On MicroPython `from micropython import const` succeeds and this module is
never imported; its compiler folds `X = const(n)` by the name alone."""


def const(x):
    return x
