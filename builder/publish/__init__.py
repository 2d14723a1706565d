"""`mmrc-build publish`: push a release folder and its tag to the Hugging Face Hub."""
