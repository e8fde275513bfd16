"""TEST-ONLY SHIM standing in for litellm in the agent-server Logbook's remote tests run.

litellm only makes network model calls; here `completion` posts the same Chat Completions request
to the OpenAI-compatible server named by `api_base` (the scripted test server) and wraps its
answer in the attribute-and-subscript objects the SDK reads.
"""

import json
import urllib.request

__all__ = [
    "model_list",
    "model_cost",
    "provider_list",
    "suppress_debug_info",
    "drop_params",
    "completion",
    "acompletion",
    "ModelResponse",
    "Message",
    "ChatCompletionMessageToolCall",
    "ChatCompletionToolParam",
    "ChatCompletionToolParamFunctionChunk",
    "token_counter",
    "get_model_info",
    "supports_vision",
    "supports_function_calling",
    "supports_reasoning",
    "supports_prompt_caching",
    "supports_response_schema",
]

model_list = []
model_cost = {}
provider_list = ["openai"]
suppress_debug_info = True
drop_params = True


class _Record(dict):
    """A JSON object read both as a dict and by attribute (None for what it lacks)."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _wrap(self.get(name))

    def __getitem__(self, key):
        return _wrap(dict.__getitem__(self, key))

    def model_dump(self, **_kwargs):
        return json.loads(json.dumps(self))


def _wrap(value):
    if isinstance(value, dict) and not isinstance(value, _Record):
        return _Record(value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


class ModelResponse(_Record):
    pass


class Message(_Record):
    pass


class ChatCompletionMessageToolCall(_Record):
    pass


class ChatCompletionToolParam(_Record):
    pass


class ChatCompletionToolParamFunctionChunk(_Record):
    pass


_FORWARDED = ("model", "messages", "tools", "tool_choice", "temperature", "max_tokens", "top_p", "stop")


def completion(**kwargs):
    base = (kwargs.get("api_base") or kwargs.get("base_url") or "").rstrip("/")
    if not base:
        raise ValueError("litellm test shim: no api_base (the tests set the model's base_url)")
    body = {k: kwargs[k] for k in _FORWARDED if kwargs.get(k) is not None}
    body["model"] = str(body.get("model", "")).split("/", 1)[-1]
    headers = {"Content-Type": "application/json"}
    if kwargs.get("api_key"):
        headers["Authorization"] = f"Bearer {kwargs['api_key']}"
    request = urllib.request.Request(
        f"{base}/chat/completions", data=json.dumps(body).encode(), headers=headers
    )
    with urllib.request.urlopen(request, timeout=kwargs.get("timeout") or 60) as response:
        answer = json.loads(response.read())
    answer.setdefault("usage", {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0})
    return ModelResponse(answer)


async def acompletion(**kwargs):
    import asyncio

    return await asyncio.to_thread(completion, **kwargs)


def token_counter(*_args, **_kwargs):
    return 0


def get_model_info(*_args, **_kwargs):
    return {"max_input_tokens": 128000, "max_output_tokens": 4096, "supports_function_calling": True}


def supports_vision(*_args, **_kwargs):
    return False


def supports_function_calling(*_args, **_kwargs):
    return True


def supports_reasoning(*_args, **_kwargs):
    return False


def supports_prompt_caching(*_args, **_kwargs):
    return False


def supports_response_schema(*_args, **_kwargs):
    return False
