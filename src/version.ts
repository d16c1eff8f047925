// Versions the outside world sees: the package, the HTTP interface (OpenAPI) and the MCP server.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pkg = require('../package.json') as { version: string };

export const packageVersion: string = pkg.version;
export const httpInterfaceVersion = '2.1.0';
export const mcpServerVersion = '2.3.0';
