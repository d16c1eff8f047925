// toolgate --help
export const usage = `toolgate: pay toolgate's tools per call in USDC (x402), within caps you set.

  toolgate tools                                 the gateway's tools, prices and inputs
  toolgate call <tool> [name=value …] [--input '{json}'] [--dry-run] [--json]
                                                 pay for one call; print the result and the receipt
  toolgate mcp --url <gateway>/mcp [--session-budget <USDC>]
                                                 an MCP server on stdio for desktop agents, paying within the caps
  toolgate wallet new [--keystore <file>]        a new key in an encrypted keystore (Web3 Secret Storage v3)
  toolgate wallet address|balance                the payer and its USDC on the gateway's network [--rpc-url <url>]
  toolgate wallet channels                       the payment channels opened from this machine: deposit, spent, refundable
  toolgate wallet refund [--channel <id>]        ask the gateway to refund the unspent part of the payer's channel
  toolgate spend                                 what the local spend record holds for today (UTC)

Options:
  --url <url>              the gateway (default TOOLGATE_URL, else http://localhost:4021)
  --max-price <USDC>       per-call cap (default: the price the gateway's documents advertise)
  --daily-budget <USDC>    per-day cap on this machine (default TOOLGATE_DAILY_BUDGET; none if unset)
  --session-budget <USDC>  cap for one \`toolgate mcp\` process
  --keystore <file>        pay with this keystore (passphrase: TOOLGATE_KEYSTORE_PASSWORD or a prompt)
  --scheme <s>             auto (default: a payment channel when the gateway offers one and its deposit
                           fits the budgets, else exact), exact, or batch-settlement (channels only)
  --deposit <USDC>         a new channel's deposit (default and floor: the gateway's announced minDeposit)
  --json                   machine-readable output

The payer: TOOLGATE_PAYER_KEY, or --keystore, or (against a local gateway) the demo payer of
$TOOLGATE_DATA_DIR/devchain.json. Spend record: $TOOLGATE_HOME/spend.json (default ~/.toolgate);
channels: $TOOLGATE_HOME/channels.json and $TOOLGATE_HOME/channels/. A deposit counts against the
budgets when made; calls paid from it add nothing; a refund gives the unspent part back.
Exit status: 0 success, 1 the call failed, 2 bad usage or configuration, 3 refused by a cap.
`;
