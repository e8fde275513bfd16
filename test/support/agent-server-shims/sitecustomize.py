"""TEST-ONLY SHIM, loaded by the agent-server that Logbook's remote tests run.

The agent-server's SDK imports packages Debian does not ship. None of them is needed for the
conversations the tests drive: they make model calls over the network (litellm, stood in for by
the real module in this folder, which calls the scripted OpenAI-compatible test server),
send telemetry (lmnr), or serve tools the tests do not enable. This finder answers each of those
imports with a placeholder module whose every attribute is a harmless stand-in class, so the
server's own code runs unchanged.
"""

import importlib.abc
import importlib.machinery
import sys
import types

PLACEHOLDERS = (
    "lmnr",
    "fastmcp",
    "tree_sitter",
    "tree_sitter_bash",
    "acp",
    "func_timeout",
    "browser_use",
    "tom_swe",
    "posthog",
    "key_value",
    "litellm",
)


class _StandIn:
    """Accepts any construction, call, attribute or subscript and does nothing."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]  # used as a decorator
        return _StandIn()

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _StandIn()

    def __class_getitem__(cls, item):
        return cls

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __bool__(self):
        return False

    def __iter__(self):
        return iter(())


class _PlaceholderModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if name.endswith(("Error", "Exception", "Timeout")):
            stand_in = type(name, (Exception,), {"__module__": self.__name__})
        elif name[:1].isupper():
            stand_in = type(name, (_StandIn,), {"__module__": self.__name__})
        else:
            stand_in = _StandIn()
        setattr(self, name, stand_in)
        return stand_in


class _PlaceholderFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname.split(".")[0] not in PLACEHOLDERS:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        module = _PlaceholderModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module):
        if module.__name__.split(".")[0] == "litellm":
            # What the SDK reads of litellm for real: its lists, types and the completion call.
            import litellm_test_shim

            for name in litellm_test_shim.__all__:
                setattr(module, name, getattr(litellm_test_shim, name))


sys.meta_path.append(_PlaceholderFinder())
