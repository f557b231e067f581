"""File formats: one module per family, each listing its codecs in ``CODECS``."""

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
