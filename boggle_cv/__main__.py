"""`python -m boggle_cv` runs the command line (through the same guarded entry)."""
from .entry import main

if __name__ == "__main__":
    main()
