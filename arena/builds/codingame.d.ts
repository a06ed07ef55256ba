// What CodinGame's TypeScript bots may call without declaring it (the arena's prelude defines them).
declare function readline(): string;
declare function print(...values: any[]): void;
declare function printErr(...values: any[]): void;
