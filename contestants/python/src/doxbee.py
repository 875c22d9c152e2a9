"""The synchronous work between the fake I/O steps of one doxbee "upload" request
(docs/PROTOCOL.md, docs/SEEDS.md#doxbee-sequential), and the transaction and query of a
fake I/O op (docs/PROTOCOL.md §4 "One fake I/O op"), shared by the asyncio and trio
scenarios so that each only says how it waits. What the steps build is kept in the
`Upload` until the request ends, as the original keeps it in its closures.

The records are slotted classes, not dicts: the seed's objects are JavaScript object
literals of a fixed shape, which V8 stores compactly (a hidden class and inline fields), and
a `__slots__` instance is CPython's counterpart (`sys.getsizeof`: 48 bytes for a query and
40 for its params, against 184 for each as a dict); a dict per query would charge Python for
a representation the seed does not pay for.
"""

import time
from dataclasses import dataclass

HASH = "hash"  # the original's createHash returns a constant


@dataclass(slots=True)
class Version:
    """The version record of step 4."""

    user_id: int
    created: float
    blob_id: int
    creator: str
    previous_id: int | None
    hash: str


@dataclass(slots=True)
class Transaction:
    """A request's transaction: it counts the fake I/O ops completed in it."""

    request: int
    ops: int = 0

    def call(self, index: int) -> None:
        """The fake database call of op `index` (docs/PROTOCOL.md §4 "One fake I/O op"): it
        makes the op's query, with new params, and lets it go once the call is made, as the
        seed does."""
        Query(QueryParams(index), self)

    def complete(self) -> None:
        """An op's completion: it counts in the transaction."""
        self.ops += 1


@dataclass(slots=True)
class QueryParams:
    """A query's parameters: the op's index within its request."""

    index: int


@dataclass(slots=True)
class Query:
    """One fake I/O op's query, made for its call and garbage once the call is made: its
    params and the transaction it runs in."""

    params: QueryParams
    tx: Transaction


@dataclass(slots=True)
class Upload:
    """State of one upload: the blob, the transaction, and what later steps build."""

    request: int
    blob: str
    tx: Transaction
    version: Version | None = None
    file_name: str | None = None
    uuid: str | None = None

    @classmethod
    def begin(cls, request: int) -> "Upload":
        """Step 1: create the blob and begin the transaction."""
        return cls(request=request, blob=f"blob-{request}", tx=Transaction(request))

    def build_version(self) -> None:
        """Step 4: the version record (the lookup of step 3 found no file)."""
        self.version = Version(
            user_id=self.request,
            created=time.time(),
            blob_id=self.request,
            creator=f"user-{self.request}",
            previous_id=None,
            hash=HASH,
        )

    def build_file_query(self) -> None:
        """Step 6: the file name (last path segment) and uuid of the "create file" query."""
        path = f"/files/{self.request}/upload.bin"
        self.file_name = path.split("/")[-1]
        self.uuid = f"{self.request:032x}"
