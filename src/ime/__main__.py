import sys

from ime.cli.main import main

sys.exit(main())
