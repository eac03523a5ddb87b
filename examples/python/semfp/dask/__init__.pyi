# Type stubs of semfp.dask.
from typing import Any, Sequence

from .. import Options

class Block:
    index: int
    path: str
    start: int
    end: int
    first_line: int
    format: str
    max_document_size: int

def dedup(inputs: Sequence[str], out_dir: str, client: Any = ..., *, options: Options | None = ..., keep: bool = ...,
          link: str = ..., block_bytes: int = ..., partitions: int | None = ..., work_dir: str | None = ...,
          format: str | None = ..., max_document_size: int = ..., **kw: Any) -> dict[str, Any]: ...
def main(argv: Sequence[str] | None = ...) -> int: ...
