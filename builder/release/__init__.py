"""`mmrc-build release`: a versioned Hugging Face dataset folder (a git repo with tag vX.Y.Z)."""
