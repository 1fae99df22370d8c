// Never answers: reads stdin and says nothing (a server stuck before its handshake).
process.stdin.resume();
setInterval(() => {}, 60_000);
