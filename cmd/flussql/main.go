package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/otel/otlp"
	"golang.org/x/term"
)

// version is the shell's version, printed by --version and at start.
const version = "0.1.0"

// Exit statuses.
const (
	exitOK          = 0
	exitFailed      = 1   // a statement or meta command failed
	exitUsage       = 2   // bad flags, or no connection could be made
	exitInterrupted = 130 // Ctrl-C (SIGINT) in a non-interactive run
)

// source is one -c or -f argument, run in command-line order.
type source struct {
	command bool // -c text, else -f file name
	text    string
}

type sourceFlag struct {
	list    *[]source
	command bool
}

func (f sourceFlag) String() string { return "" }
func (f sourceFlag) Set(v string) error {
	*f.list = append(*f.list, source{command: f.command, text: v})
	return nil
}

// env is what run takes from the process, so tests can run the shell in
// process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// open returns the database for a DSN (sql.Open("fluss", dsn) by default).
	open func(dsn string) (*sql.DB, error)
	// interrupts delivers Ctrl-C (SIGINT); nil: none.
	interrupts <-chan os.Signal
}

func main() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	os.Exit(run(os.Args[1:], env{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		getenv: os.Getenv, interrupts: sigs,
	}))
}

func isTerminal(x any) (int, bool) {
	f, ok := x.(*os.File)
	if !ok {
		return -1, false
	}
	fd := int(f.Fd())
	return fd, term.IsTerminal(fd)
}

func run(args []string, e env) int {
	if e.getenv == nil {
		e.getenv = func(string) string { return "" }
	}
	fs := flag.NewFlagSet("flussql", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var sources []source
	dsn := fs.String("dsn", "", "Fluss DSN, e.g. fluss://127.0.0.1:9123/mydb (default $FLUSS_DSN)")
	fs.Var(sourceFlag{&sources, true}, "c", "run `SQL` (statements and meta commands; repeatable) and exit")
	fs.Var(sourceFlag{&sources, false}, "f", "run the script `FILE` (repeatable; - is stdin) and exit")
	format := fs.String("format", "", "output `format`: table, csv, tsv, json, jsonl, vertical (default table on a terminal, csv otherwise)")
	quiet := fs.Bool("q", false, "quiet: no row counts, OK or timing messages on stderr")
	null := fs.String("null", "NULL", "how table and vertical output show NULL")
	showVersion := fs.Bool("version", false, "print the version and exit")
	exportOTel := fs.Bool("otel", false, "export traces and metrics over OTLP as the OTEL_EXPORTER_OTLP_* variables say (on by itself when OTEL_EXPORTER_OTLP_ENDPOINT is set)")
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "Usage: flussql [--dsn DSN] [-c SQL] [-f FILE] [--format FORMAT] [-q] [--otel] [DSN]\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *showVersion {
		fmt.Fprintf(e.stdout, "flussql %s (driver %s)\n", version, fluss.Version)
		return exitOK
	}
	switch {
	case fs.NArg() == 1 && *dsn == "":
		*dsn = fs.Arg(0)
	case fs.NArg() > 0:
		fmt.Fprintf(e.stderr, "flussql: unexpected arguments %q\n", fs.Args())
		return exitUsage
	}
	if *dsn == "" {
		*dsn = e.getenv("FLUSS_DSN")
	}
	if *dsn == "" {
		fmt.Fprintln(e.stderr, "flussql: no DSN: pass --dsn fluss://host:port/db or set FLUSS_DSN")
		return exitUsage
	}
	cfg, err := fluss.ParseDSN(*dsn)
	if err != nil {
		fmt.Fprintf(e.stderr, "flussql: %v\n", err)
		return exitUsage
	}
	outFd, outTTY := isTerminal(e.stdout)
	_, errTTY := isTerminal(e.stderr)
	_, inTTY := isTerminal(e.stdin)
	if *format == "" {
		*format = formatCSV
		if outTTY {
			*format = formatTable
		}
	}
	if !validFormat(*format) {
		fmt.Fprintf(e.stderr, "flussql: unknown format %q (want one of %s)\n", *format, strings.Join(formats, ", "))
		return exitUsage
	}
	interactive := len(sources) == 0 && inTTY

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if *exportOTel || otlp.Configured(e.getenv) {
		open, stop, err := startOTel(ctx, e.stderr)
		if err != nil {
			fmt.Fprintf(e.stderr, "flussql: %v\n", err)
			return exitUsage
		}
		defer stop()
		if e.open == nil {
			e.open = open
		}
	}
	if e.open == nil {
		e.open = func(dsn string) (*sql.DB, error) { return sql.Open(fluss.DriverName, dsn) }
	}
	db, err := e.open(*dsn)
	if err != nil {
		fmt.Fprintf(e.stderr, "flussql: %v\n", err)
		return exitUsage
	}
	defer db.Close()
	connectCtx, connectCancel := context.WithTimeout(ctx, cfg.ConnectTimeout+5*time.Second)
	conn, err := db.Conn(connectCtx)
	if err == nil {
		err = conn.PingContext(connectCtx)
	}
	connectCancel()
	if err != nil {
		fmt.Fprintf(e.stderr, "flussql: cannot connect to %s: %v\n", cfg.Redacted(), errorText(err))
		return exitUsage
	}
	defer conn.Close()

	s := newShell(db, conn, *dsn, e.stdout, e.stderr)
	s.format = *format
	s.quiet = *quiet
	s.null = *null
	s.tty = errTTY
	s.outTTY = outTTY
	s.database = cfg.Database
	if s.database == "" {
		s.database = fluss.DefaultDatabase
	}
	if outTTY {
		if w, _, err := term.GetSize(outFd); err == nil {
			s.width = w
		}
	}

	interrupted := make(chan struct{}, 1)
	if e.interrupts != nil {
		go func() {
			for range e.interrupts {
				if !s.interrupt() && !interactive {
					// Nothing running in a script: stop it.
					cancel()
				}
				if !interactive {
					select {
					case interrupted <- struct{}{}:
					default:
					}
				}
			}
		}()
	}
	wasInterrupted := func() bool {
		select {
		case <-interrupted:
			return true
		default:
			return false
		}
	}

	if interactive {
		in := e.stdin.(*os.File)
		echo := e.stdout
		if !outTTY {
			echo = e.stderr
		}
		hist := loadHistory(historyPath(e.getenv), historyLimit)
		if err := s.interactive(ctx, in, echo, outFd, hist); err != nil {
			fmt.Fprintf(e.stderr, "flussql: %v\n", err)
			return exitFailed
		}
		return exitOK
	}

	if len(sources) == 0 {
		sources = []source{{text: "-"}}
	}
	for _, src := range sources {
		var r io.Reader
		name := ""
		switch {
		case src.command:
			r = strings.NewReader(src.text)
		case src.text == "-":
			r, name = e.stdin, "<stdin>"
		default:
			f, err := os.Open(src.text)
			if err != nil {
				fmt.Fprintf(e.stderr, "flussql: %v\n", err)
				return exitFailed
			}
			defer f.Close()
			r, name = f, src.text
		}
		err := s.runScript(ctx, r, name, true)
		if errors.Is(err, errQuit) {
			return exitOK
		}
		if err != nil {
			if wasInterrupted() {
				return exitInterrupted
			}
			return exitFailed
		}
	}
	return exitOK
}
