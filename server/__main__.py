from server.cli import main

raise SystemExit(main())
