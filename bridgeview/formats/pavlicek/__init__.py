"""Richard Pavlicek's binary formats: ``zbd`` (ZBD, ZDD, ZRD), ``zbs`` (ZBS) and ``zrj`` (ZRJ and its
16-byte variant), all on the fixed-record base of :mod:`..records`."""
