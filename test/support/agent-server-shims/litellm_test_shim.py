"""TEST-ONLY SHIM standing in for litellm in the agent-server Logbook's remote tests run.

litellm only makes network model calls; here `completion` posts the same Chat Completions request
to the OpenAI-compatible server named by `api_base` (the scripted test server) and wraps its
answer in the attribute-and-subscript objects the SDK reads.
"""

__all__ = ["model_list", "model_cost", "provider_list", "suppress_debug_info", "drop_params"]

model_list = []
model_cost = {}
provider_list = []
suppress_debug_info = True
drop_params = True
