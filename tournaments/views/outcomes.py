"""What a director's POST shows: one service call, its success as a message, its refusal as a
message or against the form, in the director's language with the refusal's stable code."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest
from django_stubs_ext import StrOrPromise

from tournaments.services import ServiceError
from tournaments.words.engine import error_sentence, refusal_words


def run(request: HttpRequest, call: Callable[[], Any], success: StrOrPromise) -> Any:
    """Call one service; show its success or its refusal as a message. Returns the result, or
    None when the service refused."""
    try:
        result = call()
    except ServiceError as error:
        messages.error(request, refusal_words(error.code, error.message, error.details)[0])
        return None
    messages.success(request, success)
    return result


def refuse(form: Any, error: ServiceError) -> None:
    """Show a service's refusal against a form, with the engine's errors when it gives them: in
    the director's language, each error's code after its sentence (a director may look it up)."""
    message, details = refusal_words(error.code, error.message, error.details)
    form.add_error(None, message)
    if isinstance(details, dict) and isinstance(details.get("errors"), list):
        details = details["errors"]
    if isinstance(details, list):
        for item in details:
            if isinstance(item, dict) and item.get("code"):
                form.add_error(None, f"{error_sentence(item)} [{item['code']}]")
