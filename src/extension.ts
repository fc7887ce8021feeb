import * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext) {
  return {};
}

export function deactivate() {}
