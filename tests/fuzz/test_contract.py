"""Schemathesis against the published /openapi.json of a real server on loopback.

Every operation gets a bounded number of generated requests (``FUZZ_EXAMPLES``, default 10:
each mode cost ``make test`` 1.5-2 minutes at 25; ``make fuzz`` asks 100), with
the test key on every case; every check schemathesis has but one must pass: no server error, a documented status code,
content type, headers and body schema, invalid input rejected. Positive cases follow the schema;
negative ones break it on purpose and must get a documented 4xx.

(``schemathesis.pytest.from_fixture`` needs ``Item._nodeid``, which pytest 9 no longer has, so the
operations are walked here with ``as_strategy`` under one Hypothesis ``@given`` each.)
"""
from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.specs.openapi import checks
from tests.demo_api import ApiServer


EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "10"))
# Triage only: checks to leave out by name (e.g. FUZZ_EXCLUDE=content_type_conformance) so that
# one known finding does not hide the next; the suite itself runs every check.
EXCLUDED = [getattr(checks, name) for name in os.environ.get("FUZZ_EXCLUDE", "").split(",") if name]
# Not checked: "schema-valid requests are accepted". The API has rules across parameters and data
# that OpenAPI cannot state (end before start, playbyplay needs one filter, stat codes per sport
# from the glossary); each answers a documented 400, which the other checks still verify.
EXCLUDED.append(checks.positive_data_acceptance)


def _failures(api: ApiServer, mode: GenerationMode) -> list[str]:
    schema = schemathesis.openapi.from_url(api.url + "/openapi.json")
    failures: list[str] = []
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1

        @settings(max_examples=EXAMPLES, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(generation_mode=mode, query={"key": api.key}))
        def run(case: schemathesis.Case) -> None:
            case.call_and_validate(timeout=30, excluded_checks=EXCLUDED)

        try:
            run()
        except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - collect, name them all
            failures.append(f"{operation.label}: {str(exc)[:1500]}")
    assert operations > 19, "the schema lost operations"
    return failures


@pytest.mark.slow
def test_positive_cases_conform(api: ApiServer) -> None:
    failures = _failures(api, GenerationMode.POSITIVE)
    assert not failures, "\n\n".join(failures)


@pytest.mark.slow
def test_negative_cases_get_documented_errors(api: ApiServer) -> None:
    failures = _failures(api, GenerationMode.NEGATIVE)
    assert not failures, "\n\n".join(failures)
