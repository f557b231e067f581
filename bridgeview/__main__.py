from bridgeview.cli.main import main

raise SystemExit(main())
