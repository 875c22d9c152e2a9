"""The synchronous work between the fake I/O steps of one doxbee "upload" request
(docs/PROTOCOL.md, docs/SEEDS.md#doxbee-sequential), shared by the asyncio and trio
scenarios so that each only says how it waits. What the steps build is kept in the
`Upload` until the request ends, as the original keeps it in its closures.
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
class Upload:
    """State of one upload: the blob, the transaction, and what later steps build."""

    request: int
    blob: str
    tx: int
    version: Version | None = None
    file_name: str | None = None
    uuid: str | None = None

    @classmethod
    def begin(cls, request: int) -> "Upload":
        """Step 1: create the blob and begin the transaction."""
        return cls(request=request, blob=f"blob-{request}", tx=request)

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
