"""The small hierarchy of errors a user can cause.

Every message names what is wrong *and* how to fix it. The CLI turns these into one
line on stderr and a non-zero exit; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import errno

# Errors of the machine, not of the code: a full disk, no permission, a read-only mount. The CLI
# turns an OSError with one of these into one line naming the path; io.named_os_errors gives the
# ones a library reports without a path (polars, pyarrow, git) that path.
ENVIRONMENT_ERRNOS = {errno.ENOSPC: "no space left on the device", errno.EDQUOT: "disk quota exceeded",
                      errno.EACCES: "permission denied", errno.EPERM: "operation not permitted",
                      errno.EROFS: "read-only file system"}
DISK_FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT)
# A path the machine cannot use as given (an output under a file, a name over 255 bytes, a folder where a
# file is wanted): the CLI turns these into one line naming the path, with what is wrong and the fix.
PATH_ERRNOS = {errno.ENAMETOOLONG: ("a name in the path is too long", "use names of at most 255 bytes"),
               errno.ENOTDIR: ("a part of the path is a file, not a folder", "choose a path whose folders are folders"),
               errno.EEXIST: ("it exists and is not a folder", "move it away or choose another path"),
               errno.EISDIR: ("it is a folder, not a file", "move the folder away or choose another path"),
               errno.ELOOP: ("too many levels of symbolic links", "fix the link or choose another path")}


class MMRCError(Exception):
    """Base class: a problem the user can fix. ``exit_code`` is what the CLI returns."""

    exit_code = 1


class ConfigError(MMRCError):
    """A bad option, config file value or environment variable."""

    exit_code = 2


class InputError(MMRCError):
    """An input folder or file is missing, unfinished or not what the stage expects."""

    exit_code = 3


class OutputExistsError(MMRCError):
    """The output folder already holds a finished result made from other inputs/config."""

    exit_code = 4


class ModelError(MMRCError):
    """A model is missing, in an unsafe format or inconsistent with its config."""

    exit_code = 5


class ValidationError(MMRCError):
    """User-supplied records (labels, annotations) failed validation."""

    exit_code = 6


class DependencyError(MMRCError):
    """An optional dependency is not installed."""

    exit_code = 7


def require(module: str, pip_name: str | None = None):
    """Import ``module`` or fail with a pip hint (heavy deps are imported lazily)."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise DependencyError(
            f"{module} is not installed ({exc}); install it with `pip install {pip_name or module}` "
            "or run `make setup`"
        ) from exc


class IncompleteError(MMRCError):
    """The run finished but some work failed in a way a rerun retries (e.g. a server error)."""

    exit_code = 8


class BusyError(MMRCError):
    """Another process holds the lock on the output folder."""

    exit_code = 9
