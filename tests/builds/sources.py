"""A bot in each language the arena builds: it answers each line of input (a number) with the next
number. And a copy of it that does not compile, its error on line 3."""

HELLO = {
    "cpp": (
        "bot.cpp",
        "#include <iostream>\nint main() {\n    int n;\n    while (std::cin >> n) std::cout << n + 1 << std::endl;\n}\n",
    ),
    "c": (
        "bot.c",
        '#include <stdio.h>\nint main(void) {\n    int n;\n    while (scanf("%d", &n) == 1) { printf("%d\\n", n + 1); fflush(stdout); }\n    return 0;\n}\n',
    ),
    "java": (
        "Player.java",
        "import java.util.Scanner;\n\nclass Player {\n    public static void main(String[] args) {\n"
        "        Scanner in = new Scanner(System.in);\n"
        "        while (in.hasNextInt()) System.out.println(in.nextInt() + 1);\n    }\n}\n",
    ),
    "rust": (
        "main.rs",
        "use std::io::BufRead;\n\nfn main() {\n    for line in std::io::stdin().lock().lines() {\n"
        '        let n: i64 = line.unwrap().trim().parse().unwrap();\n        println!("{}", n + 1);\n    }\n}\n',
    ),
    "go": (
        "bot.go",
        'package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n\t"strconv"\n\t"strings"\n)\n\n'
        "func main() {\n\tscanner := bufio.NewScanner(os.Stdin)\n\tfor scanner.Scan() {\n"
        "\t\tn, _ := strconv.Atoi(strings.TrimSpace(scanner.Text()))\n\t\tfmt.Println(n + 1)\n\t}\n}\n",
    ),
    "csharp": (
        "Player.cs",
        "using System;\n\nclass Player {\n    static void Main(string[] args) {\n        string line;\n"
        "        while ((line = Console.ReadLine()) != null) Console.WriteLine(int.Parse(line) + 1);\n    }\n}\n",
    ),
    "python": ("bot.py", "import sys\n\nfor line in sys.stdin:\n    print(int(line) + 1, flush=True)\n"),
    "javascript": (
        "bot.js",
        "let line;\nwhile ((line = readline()) !== null) {\n    console.log(parseInt(line) + 1);\n}\n",
    ),
    "typescript": (
        "bot.ts",
        "let line: string | null;\nwhile ((line = readline()) !== null) {\n    console.log(parseInt(line) + 1);\n}\n",
    ),
    "kotlin": (
        "Player.kt",
        "fun main() {\n    while (true) {\n        val line = readLine() ?: break\n        println(line.trim().toInt() + 1)\n    }\n}\n",
    ),
    "scala": (
        "Player.scala",
        "object Player extends App {\n  Iterator.continually(scala.io.StdIn.readLine()).takeWhile(_ != null)\n"
        "    .foreach(line => println(line.trim.toInt + 1))\n}\n",
    ),
    "bash": ("bot.sh", "while read -r n; do\n    echo $((n + 1))\ndone\n"),
    "perl": ("bot.pl", '$| = 1;\nwhile (my $n = <STDIN>) {\n    print $n + 1, "\\n";\n}\n'),
    "ruby": ("bot.rb", "STDOUT.sync = true\nSTDIN.each_line { |line| puts line.to_i + 1 }\n"),
    "php": ("bot.php", '<?php\nwhile (($line = fgets(STDIN)) !== false) {\n    echo intval($line) + 1, "\\n";\n}\n'),
    "lua": ("bot.lua", "for line in io.lines() do\n    print(tonumber(line) + 1)\nend\n"),
}

# Each does not compile (or parse), and says so on its line 3.
BROKEN = {
    "cpp": "#include <iostream>\nint main() {\n    int x = ;\n    return 0;\n}\n",
    "c": "#include <stdio.h>\nint main(void) {\n    int x = ;\n    return 0;\n}\n",
    "java": "class Player {\n    public static void main(String[] args) {\n        int x = 1\n    }\n}\n",
    "rust": "fn main() {\n    let x = 1;\n    let y = ;\n}\n",
    "go": "package main\n\nfunc main() { x := }\n",
    "csharp": "class Player {\n    static void Main() {\n        int x = ;\n    }\n}\n",
    "python": "import sys\n\nx = (1,\n",
    "javascript": "let a = 1;\nlet b = 2;\nlet c = ;\n",
    "typescript": "let a: number = 1;\nlet b: number = 2;\nlet c: number = ;\n",
    "kotlin": "fun main() {\n    val a = 1\n    val b = \n}\n",
    "scala": "object Player extends App {\n  val a = 1\n  val b = \n}\n",
    "bash": "echo a\necho b\nif then\n",
    "perl": "use strict;\nmy $a = 1;\nmy $b = ;\n",
    "ruby": "a = 1\nb = 2\nc = )\n",
    "php": "<?php\n$a = 1;\n$b = ;\n",
}
