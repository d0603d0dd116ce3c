"""What goes on paper, in one place: table cards, score sheets and PIN slips as printable HTML
and PDF (`paper.py`) and the director's printing pages (`views.py`) with their templates
(`templates/`)."""
