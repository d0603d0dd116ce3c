"""The words of the pages, the forms and the exports, in the reader's language (English and
Japanese): the audit trail's (`audit`), the engines' notes and refusals (`engine`), the rule
options' values (`options`), the pairing engines' (`pairing`), the rules' (`rules`: cards,
calls), the standings metrics' names (`labels`) and how a score is written (`formatting`)."""
