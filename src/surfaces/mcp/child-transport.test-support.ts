/**
 * Test support (not a test): an MCP client transport over a child process we spawn ourselves, so a test can
 * wait for the process to exit on its own after stdin closes and read its exit code. (The SDK's stdio client
 * sends SIGTERM after two seconds, which would make a clean-exit assertion depend on timing.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly child: ChildProcess;
  /** Resolves with the exit code when the process ends. */
  readonly exited: Promise<number | null>;
  stderr = '';
  private readonly buffer = new ReadBuffer();

  constructor(command: string, args: string[], cwd: string) {
    this.child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: process.env });
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    this.child.stderr!.on('data', (c: Buffer) => (this.stderr += c.toString()));
  }

  async start(): Promise<void> {
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let m = this.buffer.readMessage(); m; m = this.buffer.readMessage()) this.onmessage?.(m);
    });
    this.child.once('exit', () => this.onclose?.());
    this.child.once('error', (e) => this.onerror?.(e));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.child.stdin!.write(serializeMessage(message));
  }

  /** Ends the server's stdin, as a client that quits does; the process is expected to exit by itself. */
  async close(): Promise<void> {
    this.child.stdin!.end();
  }
}
