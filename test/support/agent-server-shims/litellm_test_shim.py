"""TEST-ONLY SHIM standing in for litellm in the agent-server Logbook's remote tests run.

litellm only makes network model calls; here `completion` posts the same Chat Completions request
to the OpenAI-compatible server named by `api_base` (the scripted test server) and wraps its
answer in the attribute-and-subscript objects the SDK reads. Asked to stream (the agent's
`llm.stream`), it yields the server's chunks as they arrive, and `stream_chunk_builder` joins them
into the whole answer afterwards, as litellm does.
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
    "stream_chunk_builder",
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


_FORWARDED = (
    "model",
    "messages",
    "tools",
    "tool_choice",
    "temperature",
    "max_tokens",
    "top_p",
    "stop",
    "stream",
)


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
    timeout = kwargs.get("timeout") or 60
    if body.get("stream"):
        return _chunks(request, timeout)
    with urllib.request.urlopen(request, timeout=timeout) as response:
        answer = json.loads(response.read())
    answer.setdefault("usage", dict(_NO_USAGE))
    return ModelResponse(answer)


_NO_USAGE = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}


def _chunks(request, timeout):
    """The server-sent events of a streamed answer, one chunk each, as each line is read."""
    with urllib.request.urlopen(request, timeout=timeout) as response:
        for raw in response:
            line = raw.decode("utf-8").strip()
            if not line.startswith("data:"):
                continue
            data = line[len("data:") :].strip()
            if data == "[DONE]":
                return
            yield _Record(json.loads(data))


def stream_chunk_builder(chunks, messages=None):
    """The whole answer the chunks of a stream make: its text, reasoning and tool calls joined."""
    content, reasoning, calls = [], [], {}
    head, finish, usage = {}, None, None
    for chunk in chunks:
        head = head or {k: chunk.get(k) for k in ("id", "created", "model")}
        usage = chunk.get("usage") or usage
        for choice in chunk.get("choices") or []:
            finish = choice.get("finish_reason") or finish
            delta = choice.get("delta") or {}
            if delta.get("content"):
                content.append(delta["content"])
            if delta.get("reasoning_content"):
                reasoning.append(delta["reasoning_content"])
            for part in delta.get("tool_calls") or []:
                call = calls.setdefault(
                    part.get("index", 0),
                    {"id": None, "type": "function", "function": {"name": "", "arguments": ""}},
                )
                call["id"] = part.get("id") or call["id"]
                function = part.get("function") or {}
                call["function"]["name"] += function.get("name") or ""
                call["function"]["arguments"] += function.get("arguments") or ""
    message = {"role": "assistant", "content": "".join(content) or None}
    if reasoning:
        message["reasoning_content"] = "".join(reasoning)
    if calls:
        message["tool_calls"] = [calls[i] for i in sorted(calls)]
    return ModelResponse(
        {
            **head,
            "object": "chat.completion",
            "choices": [{"index": 0, "message": message, "finish_reason": finish or "stop"}],
            "usage": usage or dict(_NO_USAGE),
        }
    )


async def acompletion(**kwargs):
    import asyncio

    answer = await asyncio.to_thread(completion, **kwargs)
    return _async_chunks(answer) if kwargs.get("stream") else answer


async def _async_chunks(chunks):
    """A stream's chunks for the async caller, each as it is read (a thread waits on the socket)."""
    import asyncio

    done = object()
    while (chunk := await asyncio.to_thread(next, chunks, done)) is not done:
        yield chunk


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
