#!/usr/bin/env python3
"""Validate a SARIF file against the SARIF 2.1.0 JSON schema (draft-07), offline.

usage: .ci/validate-sarif.py REPORT.sarif [SCHEMA.json]

SCHEMA defaults to ../shared/schemas/sarif-schema-2.1.0.json relative to the repository
root. Exits 0 when the report is valid, 1 when it is not (every error is printed), 2 when
the files cannot be read or jsonschema is missing.
"""
import json
import os
import sys

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SCHEMA = os.path.join(REPO_ROOT, "..", "shared", "schemas", "sarif-schema-2.1.0.json")


def main(argv):
    if len(argv) not in (2, 3) or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    report_path = argv[1]
    schema_path = argv[2] if len(argv) == 3 else DEFAULT_SCHEMA
    try:
        import jsonschema
    except ImportError:
        print("validate-sarif: the python3 package 'jsonschema' is not installed", file=sys.stderr)
        return 2
    try:
        with open(schema_path, encoding="utf-8") as schema_file:
            schema = json.load(schema_file)
        with open(report_path, encoding="utf-8") as report_file:
            report = json.load(report_file)
    except (OSError, ValueError) as error:
        print(f"validate-sarif: {error}", file=sys.stderr)
        return 2

    # The official file names draft-04 in "$schema" but uses no keyword whose meaning
    # differs in draft-07, so it is checked and applied as draft-07.
    try:
        jsonschema.Draft7Validator.check_schema(schema)
    except jsonschema.SchemaError as error:
        print(f"validate-sarif: {schema_path} is not a valid schema: {error.message}", file=sys.stderr)
        return 2
    # Every $ref in the schema is local, so nothing is fetched from the network.
    validator = jsonschema.Draft7Validator(schema)
    errors = sorted(validator.iter_errors(report), key=lambda error: [str(part) for part in error.absolute_path])
    for error in errors:
        location = "/".join(str(part) for part in error.absolute_path) or "(root)"
        print(f"{report_path}: {location}: {error.message}", file=sys.stderr)
    if errors:
        print(f"validate-sarif: {len(errors)} error(s)", file=sys.stderr)
        return 1
    print(f"{report_path}: valid SARIF 2.1.0")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
