from bridgeview.cli.main import main

if __name__ == "__main__":  # importing the module (a test, a tool) does not run the command
    raise SystemExit(main())
