"""Type stubs of the compiled half of urnreg (``urnreg._urnreg``).

Use the functions of ``urnreg`` itself; this module is what they call.
"""

from typing import Dict, List, Optional, Tuple, Union
import os

MAX_LINE: int
"""The longest input a check takes, in bytes (the CLI's limit on a line)."""

class Registry:
    """A registry of URN namespaces with their rules, to check URNs against."""

    @staticmethod
    def embedded() -> "Registry":
        """The registry shipped in the package (the IANA registry with urnreg's rules)."""
    @staticmethod
    def from_path(path: Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]) -> "Registry":
        """The registry of a urnreg database, or of a snapshot (a directory,
        a ``registry.json`` or an ``urn-namespaces.xml``); ``path`` as
        ``open()`` takes it. Raises ``OSError`` (``FileNotFoundError`` for
        a missing path), ``ValueError`` for a path with a NUL byte,
        ``TypeError`` for another type."""
    def nids(self) -> List[str]:
        """The registered NIDs, in the registry's order."""
    def namespace(self, nid: str) -> Optional[Dict[str, Optional[str]]]:
        """``{nid, kind, status, syntax, rules_source}`` of a namespace, or None."""
    def check_json(
        self, urn: Union[str, bytes], strict: bool = False, syntax_only: bool = False, rfc2141: bool = False
    ) -> str:
        """The report on one URN as ``urnreg check --format jsonl`` writes it
        (a ``str`` as its UTF-8, a lone surrogate as the byte it escapes;
        ``bytes`` as they are); another type is a ``TypeError``."""

class Buffers:
    """The memory of the columns ``check_arrow`` makes, which its arrays read in place."""
