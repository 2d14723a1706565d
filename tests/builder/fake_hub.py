"""An in-process fake of the Hub endpoints huggingface_hub calls to publish a dataset.

It is plugged in as the transport of huggingface_hub's own HTTP client
(``set_client_factory`` + ``httpx2.MockTransport``), so the real HfApi code builds and
sends every request. Files are stored as regular git blobs (preupload always answers
"regular"); commits, branches and tags are kept in memory. Every request is recorded.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass, field
from urllib.parse import unquote

ENDPOINT = "https://hub.test"


def git_oid(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@dataclass
class Repo:
    private: bool
    commits: dict[str, dict[str, bytes]] = field(default_factory=dict)
    branches: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)

    def resolve(self, rev: str) -> str | None:
        return self.branches.get(rev) or self.tags.get(rev) or (rev if rev in self.commits else None)


class FakeHub:
    def __init__(self, token: str):
        self.token = token
        self.repos: dict[str, Repo] = {}
        self.requests: list[tuple[str, str]] = []
        self.headers_seen: list[dict] = []
        self.validated: list[bool] = []

    # -- plumbing -----------------------------------------------------------
    def install(self) -> "FakeHub":
        """Route huggingface_hub's shared HTTP client here; :meth:`uninstall` restores the default."""
        import httpx2
        from huggingface_hub import set_client_factory

        set_client_factory(lambda: httpx2.Client(transport=httpx2.MockTransport(self.handle)))
        return self

    @staticmethod
    def uninstall() -> None:
        from huggingface_hub import set_client_factory
        from huggingface_hub.utils._http import default_client_factory

        set_client_factory(default_client_factory)

    def handle(self, request):
        import httpx2

        path = unquote(request.url.path)
        if path == "/api/agent-harnesses":  # huggingface_hub's best-effort user-agent registry, no auth
            return httpx2.Response(404, json={"error": "not served by the fake hub"})
        self.requests.append((request.method, path))
        self.headers_seen.append(dict(request.headers))
        if request.headers.get("authorization") != f"Bearer {self.token}":
            return httpx2.Response(401, json={"error": "Invalid credentials in Authorization header"})
        download = re.fullmatch(r"/datasets/([^/]+/[^/]+)/resolve/([^/]+)/(.+)", path)
        if download and request.method in ("HEAD", "GET"):
            return self.resolve(request, *download.groups())
        for method, pattern, handler in self.routes():
            match = re.fullmatch(pattern, path)
            if method == request.method and match:
                status, body = handler(request, *match.groups())
                return httpx2.Response(status, json=body)
        return httpx2.Response(404, json={"error": f"fake hub: no route for {request.method} {path}"})

    def routes(self):
        repo = r"/api/datasets/([^/]+/[^/]+)"
        return [
            ("POST", r"/api/repos/create", self.create_repo),
            ("POST", r"/api/validate-yaml", self.validate_yaml),
            ("GET", repo + r"/refs", self.refs),
            ("POST", repo + r"/preupload/([^/]+)", self.preupload),
            ("POST", repo + r"/commit/([^/]+)", self.commit),
            ("POST", repo + r"/tag/([^/]+)", self.tag),
            ("DELETE", repo + r"/tag/([^/]+)", self.delete_tag),
            ("POST", repo + r"/super-squash/([^/]+)", self.super_squash),
            ("GET", repo + r"/tree/([^/]+)(/.*)?", self.tree),
            ("GET", repo + r"/revision/([^/]+)", self.revision),
        ]

    def _repo(self, repo_id):
        if repo_id not in self.repos:
            raise KeyError(repo_id)
        return self.repos[repo_id]

    def _new_commit(self, repo: Repo, files: dict[str, bytes], parent: str | None) -> str:
        oid = hashlib.sha1(json.dumps([parent, sorted((p, git_oid(b)) for p, b in files.items())]).encode()
                           + str(len(repo.commits)).encode()).hexdigest()
        repo.commits[oid] = files
        return oid

    # -- endpoints ----------------------------------------------------------
    def create_repo(self, request):
        body = json.loads(request.content)
        repo_id = f"{body['organization']}/{body['name']}" if body.get("organization") else body["name"]
        url = f"{ENDPOINT}/datasets/{repo_id}"
        if repo_id in self.repos:
            return 409, {"error": "You already created this dataset repo", "url": url}
        repo = self.repos[repo_id] = Repo(private=body.get("visibility") == "private" or bool(body.get("private")))
        repo.branches["main"] = self._new_commit(repo, {".gitattributes": b"*.parquet filter=lfs\n"}, None)
        return 200, {"url": url, "name": repo_id}

    def validate_yaml(self, request):
        """The Hub's card check, reduced to what the fake can know: the YAML header parses to a mapping
        with a licence and configs whose data_files name paths."""
        import yaml

        content = json.loads(request.content)["content"]
        errors = []
        try:
            header = yaml.safe_load(content.split("---", 2)[1]) if content.startswith("---") else None
        except yaml.YAMLError as exc:
            header, errors = None, [f"YAML does not parse: {exc}"]
        if not isinstance(header, dict):
            errors = errors or ["no YAML metadata header"]
        else:
            if not header.get("license"):
                errors.append('"license" is required')
            for cfg in header.get("configs", []):
                if not all("path" in f for f in cfg.get("data_files", [])):
                    errors.append(f"config {cfg.get('config_name')}: data_files entries need a path")
        self.validated.append(not errors)
        return (400, {"errors": [{"message": e} for e in errors]}) if errors else (200, {"warnings": []})

    def refs(self, request, repo_id):
        if repo_id not in self.repos:
            return 404, {"error": "Repository not found"}
        repo = self.repos[repo_id]
        ref = lambda kind, name, oid: {"name": name, "ref": f"refs/{kind}/{name}", "targetCommit": oid}  # noqa: E731
        return 200, {"branches": [ref("heads", n, o) for n, o in sorted(repo.branches.items())], "converts": [],
                     "tags": [ref("tags", n, o) for n, o in sorted(repo.tags.items())], "pullRequests": []}

    def preupload(self, request, repo_id, rev):
        repo = self._repo(repo_id)
        files = repo.commits.get(repo.resolve(rev) or "", {})
        return 200, {"files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False,
                                "oid": git_oid(files[f["path"]]) if f["path"] in files else None}
                               for f in json.loads(request.content)["files"]]}

    def commit(self, request, repo_id, rev):
        repo = self._repo(repo_id)
        parent = repo.resolve(rev)
        files = dict(repo.commits.get(parent or "", {}))
        summary = None
        for line in request.content.decode().splitlines():
            item = json.loads(line)
            value = item["value"]
            if item["key"] == "header":
                summary = value["summary"]
            elif item["key"] == "file":
                files[value["path"]] = base64.b64decode(value["content"])
            elif item["key"] == "deletedFile":
                files.pop(value["path"], None)
            elif item["key"] == "deletedFolder":
                files = {p: b for p, b in files.items() if not p.startswith(value["path"].rstrip("/") + "/")}
            else:
                return 400, {"error": f"fake hub: unsupported commit item {item['key']}"}
        oid = self._new_commit(repo, files, parent)
        repo.branches[rev] = oid
        return 200, {"success": True, "commitOid": oid, "commitUrl": f"{ENDPOINT}/datasets/{repo_id}/commit/{oid}",
                     "summary": summary}

    def tag(self, request, repo_id, rev):
        repo = self._repo(repo_id)
        name = json.loads(request.content)["tag"]
        if name in repo.tags:
            return 409, {"error": f"Tag {name} already exists"}
        repo.tags[name] = repo.resolve(rev)
        return 200, {}

    def delete_tag(self, request, repo_id, name):
        repo = self._repo(repo_id)
        if repo.tags.pop(name, None) is None:
            return 404, {"error": f"Invalid rev id: {name}"}
        return 200, {}

    def super_squash(self, request, repo_id, branch):
        """One new root commit with the branch's files; commits no ref reaches are dropped (as the
        Hub's garbage collection does)."""
        repo = self._repo(repo_id)
        files = repo.commits[repo.branches[branch]]
        repo.branches[branch] = self._new_commit(repo, dict(files), None)
        return 200, {"commitId": repo.branches[branch]}

    def reachable(self, repo_id: str) -> list[dict[str, bytes]]:
        repo = self.repos[repo_id]
        return [repo.commits[oid] for oid in {*repo.branches.values(), *repo.tags.values()}]

    def tree(self, request, repo_id, rev, sub):
        repo = self._repo(repo_id)
        oid = repo.resolve(rev)
        if oid is None:
            return 404, {"error": f"Invalid rev id: {rev}"}
        prefix = (sub or "").strip("/")
        entries = [{"type": "file", "path": p, "size": len(b), "oid": git_oid(b)}
                   for p, b in sorted(repo.commits[oid].items()) if p.startswith(prefix)]
        return 200, entries

    def revision(self, request, repo_id, rev):
        if repo_id not in self.repos:
            return 404, {"error": "Repository not found"}
        repo = self.repos[repo_id]
        oid = repo.resolve(rev)
        if oid is None:
            return 404, {"error": f"Invalid rev id: {rev}"}
        return 200, {"id": repo_id, "sha": oid, "private": repo.private,
                     "siblings": [{"rfilename": p} for p in sorted(repo.commits[oid])]}

    def resolve(self, request, repo_id, rev, file):
        """File downloads (``hf_hub_download``): HEAD gives commit/etag/size, GET the bytes."""
        import httpx2

        repo = self.repos.get(repo_id)
        oid = repo.resolve(rev) if repo else None
        if oid is None or file not in repo.commits[oid]:
            return httpx2.Response(404, headers={"X-Error-Code": "EntryNotFound"}, json={"error": "not found"})
        data = repo.commits[oid][file]
        headers = {"X-Repo-Commit": oid, "ETag": f'"{git_oid(data)}"', "Content-Length": str(len(data))}
        return httpx2.Response(200, headers=headers, content=b"" if request.method == "HEAD" else data)

    # -- for assertions -------------------------------------------------------
    def files(self, repo_id: str, rev: str) -> dict[str, bytes]:
        repo = self.repos[repo_id]
        return repo.commits[repo.resolve(rev)]
