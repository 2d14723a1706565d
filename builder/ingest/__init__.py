"""`ingest`: raw chat logs in several formats -> canonical dialogue rows (see raw/README.md)."""

from builder.ingest.config import IngestConfig
from builder.ingest.stage import run_ingest

__all__ = ["IngestConfig", "run_ingest"]
