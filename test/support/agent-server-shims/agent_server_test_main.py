"""TEST-ONLY entry point of the agent-server Logbook's remote tests run.

Debian's FastAPI is newer than the one the server was written against: it refuses the unknown
keyword `lte` that older versions accepted and ignored. Dropping it keeps the older behaviour;
then the server's own main runs unchanged.
"""

import fastapi
import fastapi.param_functions


def _tolerant(original):
    def query(*args, **kwargs):
        kwargs.pop("lte", None)
        kwargs.pop("gte", None)
        return original(*args, **kwargs)

    return query


fastapi.Query = _tolerant(fastapi.Query)
fastapi.param_functions.Query = fastapi.Query

if __name__ == "__main__":
    from openhands.agent_server.__main__ import main

    main()
else:
    import openhands.agent_server.api  # noqa: F401  (the setup's import check)
