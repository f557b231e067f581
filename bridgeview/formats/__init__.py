"""File formats: bytes to boards (or a cribbage game) and back.

A package or module per format family (``pbn/``, ``lin/``, ``pavlicek/``, ``duplimate/``,
``exchange``, ``swiftbridge``, ``halscrib``), each listing its codecs in ``CODECS``; the codec
contract in ``codec``, the one list of shipped codecs and the file functions in ``registry``, and
the machinery the families share beside them (``records``, ``bulk``, ``chunked``, ``lazytext``,
``mapped``, ``textcheck``, ``checksum``, ``verbatim``, ``errors``, ``atomic``, ``convert``).
"""

from .atomic import save_atomically
from .codec import Capabilities, Codec, ReadOptions, SaveReport, WriteOptions
from .errors import FormatError
from .registry import all_codecs, codec_for_output, detect, get, read_file, register, write_file

__all__ = [
    "Capabilities",
    "Codec",
    "FormatError",
    "ReadOptions",
    "SaveReport",
    "WriteOptions",
    "all_codecs",
    "codec_for_output",
    "detect",
    "get",
    "read_file",
    "register",
    "save_atomically",
    "write_file",
]
