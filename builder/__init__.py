"""mmrc-build: raw multimodal chat logs -> a released, versioned MMRC-style benchmark."""

__version__ = "0.1.0"
