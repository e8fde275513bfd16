"""TEST-ONLY SHIM for python-frontmatter (not packaged by Debian), in the agent-server Logbook's
remote tests run: the SDK reads its skill and sub-agent files with `frontmatter.load`. A file's
YAML header between `---` lines becomes `metadata`, the rest `content`.
"""

import yaml


class Post:
    def __init__(self, content, metadata):
        self.content = content
        self.metadata = metadata

    def get(self, key, default=None):
        return self.metadata.get(key, default)

    def __getitem__(self, key):
        return self.metadata[key]

    def __contains__(self, key):
        return key in self.metadata

    def keys(self):
        return self.metadata.keys()


def loads(text, **_defaults):
    if text.startswith("---"):
        parts = text.split("\n---", 1)
        if len(parts) == 2:
            header = parts[0][3:]
            body = parts[1].split("\n", 1)[1] if "\n" in parts[1] else ""
            return Post(body, yaml.safe_load(header) or {})
    return Post(text, {})


def load(fd, **defaults):
    if hasattr(fd, "read"):
        text = fd.read()
    else:
        with open(fd, encoding="utf-8") as f:
            text = f.read()
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return loads(text, **defaults)
