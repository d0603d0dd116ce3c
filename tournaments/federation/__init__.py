"""The federation ranking: one OpenSkill rating per game across the clubs that opt in
(`Club.federation`), over their finished events in the order they ended. See docs/clubs.md."""
