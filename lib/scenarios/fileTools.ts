// The file-tools agent of the book's kv-cache experiment (docs/CONCEPTS.md#harmful-context-patterns):
// read_file / find / grep. Tool schemas only; scripted runs over them are built by lib/agent and the
// training corpus.
import type { ToolDef } from './types';

export const FILE_AGENT_SYSTEM =
  'You are a coding assistant working inside a local repository. Use the file tools to look at the code before you answer, and answer from what the files say.';

export const FILE_TOOLS: ToolDef[] = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Read part of a file. Returns the lines starting at offset.',
      parameters: {
        type: 'object',
        properties: {
          file_path: { type: 'string', description: 'Path of the file to read' },
          offset: { type: 'integer', description: 'First line to read (0-based)' },
          size: { type: 'integer', description: 'Number of lines to read' },
        },
        required: ['file_path'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'find',
      description: 'Find files whose names match a glob pattern.',
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string', description: 'Glob pattern, e.g. *.py' },
          directory: { type: 'string', description: 'Directory to search in' },
        },
        required: ['pattern'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'grep',
      description: 'Search file contents for a regular expression.',
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string', description: 'Regular expression to search for' },
          file_path: { type: 'string', description: 'A single file to search' },
          directory: { type: 'string', description: 'A directory to search recursively' },
        },
        required: ['pattern'],
      },
    },
  },
];
