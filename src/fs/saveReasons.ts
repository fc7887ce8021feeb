/**
 * Tells the file system why VS Code saves an object document, so that a save
 * VS Code starts on its own (files.autoSave: afterDelay, onFocusChange,
 * onWindowChange) is held back and only Ctrl+S, File: Save or Save All send.
 * onWillSaveTextDocument runs in the same extension host right before the
 * provider's writeFile for that document.
 */
import * as vscode from 'vscode';
import type { ObjectFileSystem } from './objectFileSystem';
import { scheme } from './objectUri';

export function trackSaveReasons(fs: ObjectFileSystem): vscode.Disposable {
  return vscode.workspace.onWillSaveTextDocument((e) => {
    if (e.document.uri.scheme === scheme) fs.willSave(e.document.uri, e.reason);
  });
}
