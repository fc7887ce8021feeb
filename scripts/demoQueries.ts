// The demo workspace's query file (`npm start` writes it as queries.omsq; the UI checks open it): a few queries
// a team would keep in git, each run from its "Run Query" CodeLens. The format: docs/architecture.md, "Query files".
export const demoQueryFileName = 'queries.omsq';

export const demoQueryFile = `# Queries over the live objects of the active connection: click "Run Query" above one
# (or put the cursor on it and press Ctrl+Enter). The lines "# kinds:", "# folder:", "# subfolders:"
# and "# connection:" say what a query reads; those above the first ### heading hold for the whole file.
# folder: /
# subfolders: yes

### Input scanners with a supervisory fault (status 2 to 5) at priority 1
# kinds: inputScanner
InputScannerReportingPriorities[?Priority == \`1\` && StatusCode >= \`2\` && StatusCode <= \`5\`]

### Input scanners with fewer than eight reporting priorities (a priority above 0)
# kinds: inputScanner
length(InputScannerReportingPriorities[?Priority > \`0\`]) < \`8\`

### Engage sites without a site reference
# kinds: engageSite
!SiteReference

### People without an e-mail address
# kinds: person
!Addresses[?MailTo]
`;
