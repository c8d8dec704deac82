import { ALL_COMMANDS } from './commands/index';
import { HELP_GUIDE } from './commands/chat/help-guide';
import { helpFor } from './src/core/help-sections';
import { CommandRegistry } from './src/core/registry';
import { renderCardText, PLAIN } from './adapters/shell/render';
const registry = new CommandRegistry(ALL_COMMANDS as never);
for (const t of [[], ['tools'], ['calendar'], ['media'], ['media','folder'], ['jobs','run'], ['source'], ['accounts'], ['event','create']]) {
  const d = helpFor(registry as never, HELP_GUIDE, t);
  const {actions, ...c} = d as any;
  const txt = renderCardText({...c, buttons: (actions??[]).map((a:any,i:number)=>({label:a.label, actionId:String(i)}))}, PLAIN, (actions??[]).map((_:any,i:number)=>i+1));
  console.log('=====', t.join(' '), txt.length, txt.split('\n').length); console.log(txt);
}
