"""Build glue that pyproject.toml cannot express: ship the top-level ``resources/`` folder in the wheel.

The folder stays at the top of the repository (packaging scripts, tests and the
PyInstaller recipe use it there) and is mapped into the package at build time
as ``bridgeview/data``, where ``bridgeview/resources.py`` finds it with
``importlib.resources``.  Everything else is configured in pyproject.toml.
"""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["bridgeview", "bridgeview.*"]) + ["bridgeview.data"],
    package_dir={"bridgeview.data": "resources"},
    package_data={"bridgeview.data": ["*", "*/*"]},
    exclude_package_data={"bridgeview.data": ["__pycache__/*"]},
)
