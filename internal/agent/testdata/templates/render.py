"""Renders a Chat Completions request body through a Jinja chat template,
as a local model server does before the model sees it.

usage: render.py TEMPLATE BODY.json
Prints the prompt; on a template error prints it to stderr and exits 1.
"""
import json
import sys

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment


def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)


def main():
    template_path, body_path = sys.argv[1], sys.argv[2]
    with open(template_path, encoding="utf-8") as f:
        source = f.read()
    with open(body_path, encoding="utf-8") as f:
        body = json.load(f)
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    env.globals["raise_exception"] = raise_exception
    try:
        out = env.from_string(source).render(
            messages=body["messages"], tools=body.get("tools"),
            add_generation_prompt=True, bos_token="<s>", eos_token="</s>")
    except jinja2.exceptions.TemplateError as e:
        print(e, file=sys.stderr)
        sys.exit(1)
    sys.stdout.write(out)


main()
