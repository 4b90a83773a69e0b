package record

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
)

// gzipMagic starts every gzip member (RFC 1952 section 2.3.1: ID1, ID2, and
// CM 8, deflate, the only method). Files are recognised by it, not by their
// name, so a renamed file still reads.
var gzipMagic = []byte{0x1f, 0x8b, 0x08}

// MaxLineBytes bounds a record line, so that a damaged or foreign file (a
// binary file has no newlines) cannot make a reader hold it all in memory. A
// record is a few kilobytes; a game of 10,000 plies with statistics is about
// 3 MiB.
const MaxLineBytes = 64 << 20

// The limits on what a line decodes to, so that a line within MaxLineBytes cannot decode to
// gigabytes (a move of 7 bytes of JSON is a 16-byte string, a statistics entry of 22 bytes a
// 64-byte struct): the decoder stops at the first element past a limit, and Validate holds
// a game to them. datasets/README.md#validity states them.
const (
	// MaxGamePlies bounds a game's moves and statistics entries: the largest play limit the
	// engine takes (its MaxPlies setting), far beyond any game played (some hundreds).
	MaxGamePlies = 100_000
	// MaxTopMoves bounds a statistics entry's top moves: no Minishogi position has more
	// legal moves (minishogi.MaxMoves).
	MaxTopMoves = 256
	// PolicySlack is how far above 1 a statistics entry's policy may sum: its
	// probabilities are rounded to 4 decimals when written (selfplay.PolicyDigits).
	PolicySlack = 0.01
	// MaxConfigBytes bounds a player's configuration object, which is decoded by
	// encoding/json: the toolkit writes some hundreds of bytes.
	MaxConfigBytes = 64 << 10
)

// errLineTooLong is the error of a line over MaxLineBytes.
var errLineTooLong = fmt.Errorf("line longer than %d MiB: not a record (a damaged or binary file?)", MaxLineBytes>>20)

// LineError is a bad record, located by file and line (1-based; lines of the
// decompressed text for gzip files).
type LineError struct {
	File string
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("record: %s:%d: %v", e.File, e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Reader streams games from a sequence of files, plain or gzip, in order.
//
// It reads ahead in chunks of about a megabyte and decodes them on several
// goroutines (Workers), handing the games back in file order. A gzip file
// written one member per game (Writer) is cut at member starts and its
// chunks are decompressed in parallel too; any other gzip file is
// decompressed on one goroutine and decoded on several. Memory is a few
// chunks per worker whatever the number of games.
type Reader struct {
	paths          []string
	onSkip         func(error) // nil: stop at the first bad record
	skip           bool
	requireNewline bool
	fields         Fields
	workers        int
	keep           func(*Game) bool  // nil: every game
	check          func(*Game) error // nil: none
	ctx            context.Context   // nil: never cancelled

	started bool
	order   chan *job     // jobs in file order, for Read
	stop    chan struct{} // closed by Close: the goroutines end
	free    chan []byte   // chunk buffers to use again
	wg      sync.WaitGroup
	dec     *decoder // for the chunks Read decodes itself (see joinGzip)

	cur     *job // the job whose results Read is handing out
	next    int  // index in cur.out
	name    string
	line    int // the line of the last record returned
	base    int // lines of the current file before cur
	skipped int
	dropped int   // games keep dropped
	err     error // sticky
}

// ReaderOption configures NewReader.
type ReaderOption func(*Reader)

// SkipInvalid makes the reader skip bad records (bad JSON, failed
// validation, a truncated last record) instead of stopping; report, if not
// nil, receives each one's *LineError. Errors opening or decompressing a file
// still stop the reader.
func SkipInvalid(report func(error)) ReaderOption {
	return func(r *Reader) { r.skip, r.onSkip = true, report }
}

// RequireNewline makes a last line without its newline a bad record. A
// writer ends every record with a newline, so such a line is what a killed
// run leaves; a file that must be finished (to merge or verify it) may not
// have one. Without this option the line is read like any other.
func RequireNewline() ReaderOption {
	return func(r *Reader) { r.requireNewline = true }
}

// WithFields makes the reader decode only the fields f of each record
// (see Fields) and leave the others zero.
func WithFields(f Fields) ReaderOption {
	return func(r *Reader) { r.fields = f }
}

// WithContext makes Read return ctx's error once ctx is cancelled (SIGINT,
// SIGTERM), even while the file it waits for sends nothing (a FIFO, a stalled
// network file system): a reading goroutine blocked in the system is then left
// to end with the process, and Close does not wait for it.
func WithContext(ctx context.Context) ReaderOption {
	return func(r *Reader) { r.ctx = ctx }
}

// Select makes the reader hand out only the games keep returns true for; keep runs on the
// decoding goroutines, several at once (so it must be safe for that), and Dropped counts the
// others. A filter that reads a field needs it among the fields read (WithFields).
func Select(keep func(*Game) bool) ReaderOption {
	return func(r *Reader) { r.keep = keep }
}

// Check runs check on every game kept, on the decoding goroutines (so it must be safe to
// call from several at once), before Read hands the game out: a game check rejects is
// returned by Read together with check's error, unchanged, and reading goes on after it. A
// replay of the moves with the rules (analysis/selection.CheckMoves) is the use: it costs
// more than decoding.
func Check(check func(*Game) error) ReaderOption {
	return func(r *Reader) { r.check = check }
}

// Workers sets the number of goroutines that decode; the default is
// GOMAXPROCS.
func Workers(n int) ReaderOption {
	return func(r *Reader) { r.workers = n }
}

// NewReader reads the files in order. Files are opened as they are reached.
func NewReader(paths []string, opts ...ReaderOption) *Reader {
	r := &Reader{paths: paths}
	for _, o := range opts {
		o(r)
	}
	if r.fields == 0 {
		r.fields = AllFields
	}
	if r.workers < 1 {
		r.workers = runtime.GOMAXPROCS(0)
	}
	return r
}

// job is one chunk of one file: lines of text, or whole gzip members to
// decompress first. Its results are ready when done is closed.
type job struct {
	file    int
	name    string
	offset  int64 // of data in the file (compressed bytes for a gzip chunk)
	data    []byte
	buf     []byte // data's whole buffer, to use again when the job is done with
	gzip    bool   // data are gzip members
	tooLong bool   // the chunk is one line over MaxLineBytes, not kept
	last    bool   // the file's last chunk
	openErr error

	done    chan struct{}
	out     []result
	lines   int         // lines in the chunk's text
	partial bool        // the text ended without a newline (only on the last chunk)
	status  chunkStatus // of a gzip chunk
	err     error       // decompressing; set by cut for a truncated gzip stream
}

// result is one line's outcome: a game or a bad record.
type result struct {
	line    int // 1-based within the chunk
	game    *Game
	err     error
	checked error // Check's verdict on game
	dropped bool  // Select dropped game
}

type chunkStatus int

const (
	chunkWhole  chunkStatus = iota
	chunkRunsOn             // a gzip member or a line goes on past the chunk: join the next one
)

// Chunk sizes: big enough that the per-chunk costs vanish, small enough that
// the chunks in flight (inFlight) stay a few megabytes.
const (
	textChunk = 512 << 10
	gzipChunk = 128 << 10
)

// inFlight is the number of chunks read ahead per worker, beyond the one
// Read is handing out.
const inFlight = 2

// getBuf returns an empty buffer of capacity n or more, used before if one
// is free.
func (r *Reader) getBuf(n int) []byte {
	select {
	case b := <-r.free:
		if cap(b) >= n {
			return b[:0]
		}
	default:
	}
	return make([]byte, 0, n)
}

// putBuf hands a buffer back for getBuf.
func (r *Reader) putBuf(b []byte) {
	if b == nil {
		return
	}
	select {
	case r.free <- b:
	default:
	}
}

// Read returns the next game, or io.EOF after the last file. A game that Check rejects comes
// with Check's error (both results not nil); any other error ends the reading.
func (r *Reader) Read() (*Game, error) {
	if !r.started {
		r.start()
	}
	for r.err == nil {
		if r.ctx != nil && r.ctx.Err() != nil {
			r.err = fmt.Errorf("record: %w", r.ctx.Err())
			break
		}
		if r.cur == nil || r.next == len(r.cur.out) {
			r.nextJob()
			continue
		}
		res := r.cur.out[r.next]
		r.next++
		r.line = r.base + res.line
		if res.dropped {
			r.dropped++
			continue
		}
		if res.err == nil {
			return res.game, res.checked
		}
		var f *fatal
		if errors.As(res.err, &f) {
			r.err = f.err
			break
		}
		var lerr *LineError
		if !errors.As(res.err, &lerr) {
			lerr = &LineError{r.name, r.line, res.err}
		}
		if !r.skip {
			r.err = lerr
			break
		}
		r.skipBad(lerr)
	}
	return nil, r.err
}

// nextJob moves to the next chunk; it sets r.err at the end or on a file's
// error.
func (r *Reader) nextJob() {
	if r.cur != nil {
		r.base += r.cur.lines
		if r.cur.gzip {
			r.putBuf(r.cur.buf) // kept until now in case of a join
		}
	}
	j, ok, err := r.wait(r.order)
	if err != nil || !ok {
		r.err = cmp.Or(err, io.EOF)
		return
	}
	if r.cur == nil || j.file != r.cur.file {
		r.name, r.base = j.name, 0
	}
	r.cur, r.next = j, 0
	if j.openErr != nil {
		r.err = j.openErr
		return
	}
	for j.err == nil && j.status == chunkRunsOn && !j.last {
		if r.err = r.joinGzip(j); r.err != nil {
			return
		}
	}
	if j.err != nil {
		// The whole records before the damage are handed out first.
		if r.skip && errors.Is(j.err, io.ErrUnexpectedEOF) && j.last {
			// A gzip member cut short by a crash: the last record is lost.
			j.out = append(j.out, result{line: j.lines + 1, err: errors.New("gzip data ends mid-record")})
		} else {
			j.out = append(j.out, result{line: j.lines, err: &fatal{fmt.Errorf("record: %s: after line %d: %w", j.name, r.base+j.lines, j.err)}})
		}
	}
}

// fatal is a decompression error that must stop the reader even with
// SkipInvalid.
type fatal struct{ err error }

func (f *fatal) Error() string { return f.err.Error() }
func (f *fatal) Unwrap() error { return f.err }

// joinGzip decodes j's members again together with the next chunk's, when a
// member ran on past j's end: j was cut at three bytes that looked like a
// member start but lay inside a member. The next chunk's own results are
// dropped; they began mid-member.
func (r *Reader) joinGzip(j *job) error {
	nj, ok, err := r.wait(r.order)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("record: reader closed")
	}
	if nj.openErr != nil {
		return nj.openErr
	}
	if r.dec == nil {
		r.dec = newDecoder()
	}
	j.data = append(j.data[:len(j.data):len(j.data)], nj.data...)
	r.putBuf(nj.buf)
	j.last = nj.last
	j.out, j.lines, j.partial, j.status, j.err = nil, 0, false, chunkWhole, nil
	r.decodeChunk(r.dec, j)
	return nil
}

// wait takes the next job from order and waits until it is decoded, or until
// the reader's context is cancelled.
func (r *Reader) wait(order chan *job) (*job, bool, error) {
	var done <-chan struct{}
	if r.ctx != nil {
		done = r.ctx.Done()
	}
	select {
	case j, ok := <-order:
		if !ok {
			return nil, false, nil
		}
		select {
		case <-j.done:
			return j, true, nil
		case <-done:
		}
	case <-done:
	}
	return nil, false, fmt.Errorf("record: %w", r.ctx.Err())
}

func (r *Reader) skipBad(err error) {
	r.skipped++
	if r.onSkip != nil {
		r.onSkip(err)
	}
}

// Position returns the file and the 1-based line of the record Read returned
// last, for messages about it.
func (r *Reader) Position() (file string, line int) { return r.name, r.line }

// Skipped is the number of bad records skipped so far (with SkipInvalid).
func (r *Reader) Skipped() int { return r.skipped }

// Dropped is the number of games Select dropped so far.
func (r *Reader) Dropped() int { return r.dropped }

// Close stops the reading ahead and closes the file being read, if any.
func (r *Reader) Close() error {
	if r.err == nil {
		r.err = errors.New("record: reader closed")
	}
	if r.started && r.stop != nil {
		close(r.stop)
		r.stop = nil
		if r.ctx == nil || r.ctx.Err() == nil {
			r.wg.Wait()
		}
	}
	return nil
}

// start runs the pipeline: one goroutine cuts the files into jobs, the
// workers decode them, and Read takes them in order from r.order, whose
// capacity bounds the chunks in flight.
func (r *Reader) start() {
	r.started = true
	r.order = make(chan *job, inFlight*r.workers)
	r.free = make(chan []byte, inFlight*r.workers+2)
	stop := make(chan struct{})
	r.stop = stop
	jobs := make(chan *job, r.workers)
	r.wg.Add(1 + r.workers)
	go func() {
		defer r.wg.Done()
		defer close(r.order)
		defer close(jobs)
		send := func(j *job) bool {
			j.done = make(chan struct{})
			select {
			case r.order <- j:
			case <-stop:
				return false
			}
			if j.openErr != nil {
				close(j.done)
				return true
			}
			select {
			case jobs <- j:
				return true
			case <-stop:
				return false
			}
		}
		for i, path := range r.paths {
			if !r.cut(i, path, send) {
				return
			}
		}
	}()
	for range r.workers {
		go func() {
			defer r.wg.Done()
			dec := newDecoder()
			for j := range jobs {
				r.decodeChunk(dec, j)
				if !j.gzip {
					r.putBuf(j.buf)
					j.buf, j.data = nil, nil
				}
				close(j.done)
			}
		}()
	}
}

// cut reads one file and sends its chunks; it returns false when the reader
// was closed or the file failed (the failure is sent as a job).
func (r *Reader) cut(index int, path string, send func(*job) bool) bool {
	fail := func(err error) bool {
		send(&job{file: index, name: path, openErr: err})
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return fail(fmt.Errorf("record: %w", err))
	}
	defer f.Close()
	head := make([]byte, textChunk)
	n, err := io.ReadFull(f, head)
	head = head[:n]
	atEOF := err == io.EOF || err == io.ErrUnexpectedEOF
	if err != nil && !atEOF {
		return fail(fmt.Errorf("record: %s: %w", path, err))
	}
	if !bytes.HasPrefix(head, gzipMagic[:2]) {
		return r.cutText(index, path, f, head, atEOF, send, fail)
	}
	if memberPerRecord(head) {
		return r.cutMembers(index, path, f, head, atEOF, send, fail)
	}
	// One big member (a recompressed file): inflate here, decode in parallel.
	zr, err := gzip.NewReader(io.MultiReader(bytes.NewReader(head), f))
	if err != nil {
		return fail(fmt.Errorf("record: %s: %w", path, err))
	}
	return r.cutText(index, path, zr, nil, false, send, fail)
}

// memberPerRecord reports whether a gzip file's first member is small and
// followed by another, as Writer writes them: then its members can be found
// by their magic bytes and inflated in parallel.
func memberPerRecord(head []byte) bool {
	br := bytes.NewReader(head)
	zr, err := gzip.NewReader(br)
	if err != nil {
		return false
	}
	zr.Multistream(false)
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return false
	}
	return bytes.HasPrefix(head[len(head)-br.Len():], gzipMagic)
}

// cutText sends the text of src (after head) in chunks that end at a
// newline.
func (r *Reader) cutText(index int, path string, src io.Reader, head []byte, atEOF bool, send func(*job) bool, fail func(error) bool) bool {
	buf := head
	var offset int64
	end := bytes.LastIndexByte(buf, '\n') + 1 // the whole lines in buf; kept up to date as buf grows
	for {
		for !atEOF && (len(buf) < textChunk || end == 0) {
			if len(buf) > MaxLineBytes {
				// buf is the start of one line: read it to its end, drop it.
				rest, eof, err := skipLine(src, buf)
				if err != nil {
					return fail(fmt.Errorf("record: %s: %w", path, err))
				}
				if !send(&job{file: index, name: path, offset: offset, tooLong: true, last: eof}) {
					return false
				}
				if eof {
					return true
				}
				buf = append(r.getBuf(textChunk+textChunk/2), rest...)
				end = bytes.LastIndexByte(buf, '\n') + 1
				continue
			}
			if cap(buf)-len(buf) < textChunk/2 {
				buf = append(r.getBuf(2*cap(buf)+textChunk), buf...)
			}
			n, err := src.Read(buf[len(buf):cap(buf)])
			if i := bytes.LastIndexByte(buf[len(buf):len(buf)+n], '\n'); i >= 0 {
				end = len(buf) + i + 1
			}
			buf = buf[:len(buf)+n]
			switch {
			case err == io.EOF:
				atEOF = true
			case errors.Is(err, io.ErrUnexpectedEOF):
				// gzip data cut short, as a crash leaves it: the whole
				// lines are read, the cut one is a lost record.
				return send(&job{file: index, name: path, offset: offset, data: buf[:end:end], buf: buf, last: true, err: err})
			case err != nil:
				return fail(fmt.Errorf("record: %s: %w", path, err))
			}
		}
		if atEOF {
			end = len(buf)
		}
		if end > 0 || atEOF {
			if !send(&job{file: index, name: path, offset: offset, data: buf[:end:end], buf: buf, last: atEOF}) {
				return false
			}
		}
		if atEOF {
			return true
		}
		offset += int64(end)
		buf = append(r.getBuf(max(textChunk+textChunk/2, len(buf)-end+textChunk)), buf[end:]...)
		end = bytes.LastIndexByte(buf, '\n') + 1 // none: the rest of a line
	}
}

// cutMembers sends a member-per-record gzip file in chunks of about
// gzipChunk compressed bytes, each cut where the magic bytes of a member
// start. Those bytes can also occur inside a member's compressed data (about
// once in 16 MB); a chunk cut there runs on, and Read joins it to the next.
func (r *Reader) cutMembers(index int, path string, f io.Reader, head []byte, atEOF bool, send func(*job) bool, fail func(error) bool) bool {
	buf := head
	var offset int64
	for {
		cutAt := -1
		for cutAt < 0 {
			if len(buf) > gzipChunk {
				if i := bytes.Index(buf[gzipChunk:], gzipMagic); i >= 0 {
					cutAt = gzipChunk + i
					break
				}
			}
			if atEOF || len(buf) >= MaxLineBytes {
				// The rest, or one huge member that Read will join.
				cutAt = len(buf)
				break
			}
			if cap(buf)-len(buf) < gzipChunk/2 {
				buf = append(r.getBuf(2*cap(buf)+gzipChunk), buf...)
			}
			n, err := f.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				atEOF = true
			} else if err != nil {
				return fail(fmt.Errorf("record: %s: %w", path, err))
			}
		}
		last := atEOF && cutAt == len(buf)
		if !send(&job{file: index, name: path, offset: offset, data: buf[:cutAt:cutAt], buf: buf, gzip: true, last: last}) {
			return false
		}
		if last {
			return true
		}
		offset += int64(cutAt)
		buf = append(r.getBuf(max(2*gzipChunk, len(buf)-cutAt+gzipChunk)), buf[cutAt:]...)
	}
}

// decodeChunk fills j's results: it inflates a gzip chunk's members, then
// decodes the lines.
func (r *Reader) decodeChunk(dec *decoder, j *job) {
	if j.tooLong {
		j.out, j.lines = []result{{line: 1, err: errLineTooLong}}, 1
		return
	}
	text := j.data
	if j.gzip {
		var textBuf []byte
		textBuf, j.status, j.err = inflateMembers(r.getBuf(6*len(j.data)), j.data, j.offset)
		defer r.putBuf(textBuf)
		text = textBuf
		if j.status == chunkRunsOn && !j.last {
			return // Read joins it to the next chunk
		}
		if j.status == chunkRunsOn {
			j.err = io.ErrUnexpectedEOF // the file ends mid-member: a cut record
		}
	}
	var games []Game
	line := 0
	for len(text) > 0 {
		lineText, rest, found := bytes.Cut(text, []byte{'\n'})
		text = rest
		line++
		if !found {
			if !j.last {
				j.status = chunkRunsOn // a member that ends mid-line: join
				j.out, j.lines = nil, 0
				return
			}
			j.partial = true
		}
		if len(lineText) > MaxLineBytes {
			j.out = append(j.out, result{line: line, err: errLineTooLong})
			continue
		}
		if isBlank(lineText) {
			continue // blank lines separate nothing; tolerate them
		}
		if found || !r.requireNewline {
			if len(games) == cap(games) {
				games = make([]Game, 0, 64)
			}
			games = append(games, Game{})
			g := &games[len(games)-1]
			if err := dec.decode(lineText, r.fields, g); err != nil {
				j.out = append(j.out, result{line: line, err: err})
				continue
			}
			res := result{line: line, game: g}
			if r.keep != nil && !r.keep(g) {
				res.game, res.dropped = nil, true
			} else if r.check != nil {
				res.checked = r.check(g)
			}
			j.out = append(j.out, res)
			continue
		}
		j.out = append(j.out, result{line: line, err: errors.New("partial record without a newline (the file was cut off, as a killed run leaves it)")})
	}
	j.lines = line
}

func isBlank(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}

// inflateMembers decompresses the whole gzip members in data. A member cut
// by the end of data makes the status chunkRunsOn; a corrupt one is an
// error.
func inflateMembers(buf, data []byte, offset int64) ([]byte, chunkStatus, error) {
	text := bytes.NewBuffer(buf)
	br := bytes.NewReader(data)
	var zr *gzip.Reader
	for br.Len() > 0 {
		at, before := len(data)-br.Len(), text.Len()
		var err error
		if zr == nil {
			zr, err = gzip.NewReader(br)
		} else {
			err = zr.Reset(br)
		}
		if err == nil {
			// gzip.Reader reads br, an io.ByteReader, byte by byte at the
			// end of a member, so it stops exactly at the next member.
			zr.Multistream(false)
			_, err = text.ReadFrom(zr)
		}
		if err != nil {
			text.Truncate(before) // what the bad member gave is no record
		}
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF:
			return text.Bytes(), chunkRunsOn, nil
		case err != nil:
			return text.Bytes(), chunkWhole, fmt.Errorf("gzip member at byte %d: %w", offset+int64(at), err)
		}
	}
	return text.Bytes(), chunkWhole, nil
}

// skipLine reads src past the end of the line begun in buf, which holds no
// newline, and returns what follows it, and whether src ended first.
func skipLine(src io.Reader, buf []byte) (rest []byte, eof bool, err error) {
	for {
		n, err := src.Read(buf[:cap(buf)])
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return bytes.Clone(buf[i+1 : n]), false, nil
		}
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, true, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
}
