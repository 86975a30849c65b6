package cluster

import (
	"archive/tar"
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// DefaultFilesBucket is the key-value bucket that names each session's
// current save.
const DefaultFilesBucket = "hotplex_conversations"

// DefaultFilesStream is the stream that holds the saves' content.
const DefaultFilesStream = "HOTPLEX_CONVERSATION_FILES"

// filesSubjectPrefix is followed by a session's key and a save's name.
const filesSubjectPrefix = "hotplex.conversations."

// DefaultFilesMaxBytes bounds the files of one session's save.
const DefaultFilesMaxBytes = 64 << 20

// filesChunk is the size of one message of a save's content, well under
// the server's default 1 MiB message limit.
const filesChunk = 256 << 10

var (
	// ErrFenced answers a save made with a lower token than one already
	// recorded: a newer owner of the session has saved since.
	ErrFenced = errors.New("a newer owner saved the session's files")
	// ErrNotFound answers LoadFiles for a session that has none saved.
	ErrNotFound = errors.New("no files saved for the session")
	// ErrTooLarge is what a save over the size bound matches.
	ErrTooLarge = errors.New("files too large")
)

// FilesConfig describes where conversation files are kept. The zero value
// is the default buckets on one replica with the default size bound.
type FilesConfig struct {
	// Bucket is the pointer bucket's name; empty means
	// DefaultFilesBucket.
	Bucket string
	// Stream is the content stream's name; empty means
	// DefaultFilesStream.
	Stream string
	// Replicas of both buckets' streams on a clustered NATS; zero
	// means 1.
	Replicas int
	// MaxBytes bounds the sum of a save's file sizes; zero means
	// DefaultFilesMaxBytes.
	MaxBytes int64
	// ReplacedGrace is how long a save replaced by a newer one is
	// kept for readers that read the pointer before it moved; zero
	// means DefaultReplacedGrace. At most maxReplaced are kept.
	ReplacedGrace time.Duration
	// Logger receives saves that could not be deleted; nil discards.
	Logger *slog.Logger
}

// DefaultReplacedGrace is how long a replaced save is kept by default.
const DefaultReplacedGrace = time.Minute

// maxReplaced bounds the replaced saves a session keeps, however often it
// is saved.
const maxReplaced = 32

// File is one file of a conversation, named relative to the session's
// directory.
type File struct {
	// Path is relative, clean and slash-separated ("memory/notes.md").
	Path string
	// Mode is the file's permission bits; other bits are dropped.
	Mode fs.FileMode
	Data []byte
}

// Files saves and loads the files of conversations (a CLI's transcript
// and what it keeps beside it) so that another node can resume a session
// after its owner moved.
//
// A save is one tar archive, written in chunks to a stream under a
// subject of its own. Each session has a pointer entry in a key-value
// bucket naming its current save (the chunks' stream sequences, size and
// SHA-256) and the lease token it was saved with. A save writes its
// chunks, then moves the pointer with a compare-and-set, so a reader
// always finds a whole save, never half of one, and a save whose token is
// below the recorded one is refused: a former owner that was paused past
// its lease cannot overwrite what the new owner saved.
//
// The saves a save replaces are not deleted at once but by the first save
// at least ReplacedGrace later, so that a reader that read the pointer
// just before it moved still finds the content it names; one slower than
// that finds a chunk gone and reads the pointer again.
//
// The content is not kept in a JetStream object store: its Put in nats.go
// v1.55 starts a goroutine that, when the Put ends before it first runs,
// waits on a nil channel forever, one leaked goroutine per unlucky save;
// and a read of an object deleted under it waits out a timeout instead
// of failing. Direct gets of known sequences have neither problem.
//
// Not guaranteed: a save that fails between writing its chunks and moving
// the pointer (a crash, NATS gone) may leave the chunks behind,
// unreferenced; and a save with the same token as the recorded one
// replaces it, since one holder's saves are ordered by that holder.
type Files struct {
	js       jetstream.JetStream
	stream   jetstream.Stream
	heads    jetstream.KeyValue
	maxBytes int64
	grace    time.Duration
	log      *slog.Logger
}

// filesHead is a session's pointer entry.
type filesHead struct {
	Token uint64 `json:"token"`
	// Object names the save: its chunks are on filesSubjectPrefix, the
	// session's key, ".", Object.
	Object string `json:"object"`
	// Seqs are the stream sequences of its chunks, in order.
	Seqs   []uint64 `json:"seqs"`
	Size   int64    `json:"size"`
	SHA256 string   `json:"sha256"`
	// Replaced are earlier saves, newest first, kept for
	// readers until a save finds them older than the grace.
	Replaced []replacedObject `json:"replaced,omitempty"`
}

type replacedObject struct {
	Name string    `json:"name"`
	At   time.Time `json:"at"` // when a save replaced it, the saver's clock
}

// next is the pointer a save writes over h, and the saves it no longer
// names, to delete once it is written.
func (h filesHead) next(saved filesHead, now time.Time, grace time.Duration) (filesHead, []string) {
	n := saved
	n.Replaced = nil
	old := h.Replaced
	if h.Object != "" {
		old = append([]replacedObject{{Name: h.Object, At: now}}, old...)
	}
	var drop []string
	for _, r := range old {
		if now.Sub(r.At) < grace && len(n.Replaced) < maxReplaced {
			n.Replaced = append(n.Replaced, r)
		} else {
			drop = append(drop, r.Name)
		}
	}
	return n, drop
}

// OpenFiles creates the files buckets, or binds to them when another node
// created them already.
func OpenFiles(ctx context.Context, js jetstream.JetStream, c FilesConfig) (*Files, error) {
	replicas := cmp.Or(c.Replicas, 1)
	streamName := cmp.Or(c.Stream, DefaultFilesStream)
	st, err := js.CreateStream(ctx, jetstream.StreamConfig{
		Name:        streamName,
		Description: "HotPlex conversation files: the content of each save, in chunks",
		Subjects:    []string{filesSubjectPrefix + ">"},
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
		AllowDirect: true,
	})
	if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		st, err = js.Stream(ctx, streamName)
	}
	if err != nil {
		return nil, fmt.Errorf("cluster: files stream %s: %w", streamName, err)
	}
	if !slices.Contains(st.CachedInfo().Config.Subjects, filesSubjectPrefix+">") {
		return nil, fmt.Errorf("cluster: files stream %s carries %v, not %s>", streamName, st.CachedInfo().Config.Subjects, filesSubjectPrefix)
	}
	headsName := cmp.Or(c.Bucket, DefaultFilesBucket)
	heads, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:      headsName,
		Description: "HotPlex conversation files: each session's current save and its token",
		History:     1,
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
	})
	if errors.Is(err, jetstream.ErrBucketExists) {
		heads, err = js.KeyValue(ctx, headsName)
	}
	if err != nil {
		return nil, fmt.Errorf("cluster: files bucket %s: %w", headsName, err)
	}
	log := c.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Files{
		js:       js,
		stream:   st,
		heads:    heads,
		maxBytes: cmp.Or(c.MaxBytes, DefaultFilesMaxBytes),
		grace:    cmp.Or(c.ReplacedGrace, DefaultReplacedGrace),
		log:      log,
	}, nil
}

// checkPath accepts a relative, clean, slash-separated path that stays
// inside the directory it is relative to.
func checkPath(p string) error {
	switch {
	case p == "" || p == ".":
		return errors.New("empty path")
	case strings.ContainsAny(p, "\\\x00"):
		return fmt.Errorf("path %q holds a backslash or NUL", p)
	case path.IsAbs(p) || filepath.IsAbs(p):
		return fmt.Errorf("path %q is absolute", p)
	case path.Clean(p) != p:
		return fmt.Errorf("path %q is not clean (want %q)", p, path.Clean(p))
	case p == ".." || strings.HasPrefix(p, "../"):
		return fmt.Errorf("path %q leaves its directory", p)
	case !filepath.IsLocal(filepath.FromSlash(p)):
		return fmt.Errorf("path %q is not local (a reserved name?)", p)
	}
	return nil
}

// checkFiles validates a save's files before anything is written.
func (f *Files) checkFiles(files []File) error {
	seen := make(map[string]bool, len(files))
	var total int64
	for _, file := range files {
		if err := checkPath(file.Path); err != nil {
			return err
		}
		if seen[file.Path] {
			return fmt.Errorf("path %q given twice", file.Path)
		}
		seen[file.Path] = true
		total += int64(len(file.Data))
		if total > f.maxBytes {
			return fmt.Errorf("%w: more than %d bytes", ErrTooLarge, f.maxBytes)
		}
	}
	// A file whose path is another's directory could not be written.
	for p := range seen {
		for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
			if seen[dir] {
				return fmt.Errorf("path %q is inside file %q", p, dir)
			}
		}
	}
	return nil
}

// SaveFiles records files as the session's conversation files, saved by
// the holder of the lease with token (Lease.Token). It fails with
// ErrFenced, and changes nothing, when a save with a higher token was
// recorded; with a clear error, saving nothing, for a path that is not
// relative and clean or files over the size bound.
func (f *Files) SaveFiles(ctx context.Context, sessionID string, token uint64, files []File) error {
	key, err := ownerKey(sessionID)
	if err != nil {
		return err
	}
	if token == 0 {
		return fmt.Errorf("cluster: save files of session %q: no lease token", sessionID)
	}
	if err := f.checkFiles(files); err != nil {
		return fmt.Errorf("cluster: save files of session %q: %w", sessionID, err)
	}
	head, rev, err := f.head(ctx, key)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("cluster: save files of session %q: %w", sessionID, err)
	}
	if head.Token > token {
		return fmt.Errorf("cluster: save files of session %q with token %d: %w (token %d)", sessionID, token, ErrFenced, head.Token)
	}
	archive, err := tarFiles(files)
	if err != nil {
		return fmt.Errorf("cluster: save files of session %q: %w", sessionID, err)
	}
	// A name of its own for every save: two saves under one token at
	// once must not write under the same subject.
	object := strconv.FormatUint(token, 10) + "-" + rand.Text()
	saved, err := f.writeChunks(ctx, key, object, archive)
	if err != nil {
		return fmt.Errorf("cluster: save files of session %q: %w", sessionID, err)
	}
	saved.Token = token
	var drop []string
	for {
		var next filesHead
		next, drop = head.next(saved, time.Now(), f.grace)
		value, err := json.Marshal(next)
		if err != nil {
			return err
		}
		if rev == 0 {
			_, err = f.heads.Create(ctx, key, value)
		} else {
			_, err = f.heads.Update(ctx, key, value, rev)
		}
		if err == nil {
			break
		}
		if !isConflict(err) {
			// The pointer may have moved anyway (a lost reply), so the
			// chunks stay: deleting them could break a reader.
			return fmt.Errorf("cluster: save files of session %q: %w", sessionID, err)
		}
		// Another save moved the pointer since it was read.
		head, rev, err = f.head(ctx, key)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return fmt.Errorf("cluster: save files of session %q: %w", sessionID, err)
		}
		if head.Token > token {
			f.deleteSave(key, object)
			return fmt.Errorf("cluster: save files of session %q with token %d: %w (token %d)", sessionID, token, ErrFenced, head.Token)
		}
	}
	for _, name := range drop {
		f.deleteSave(key, name)
	}
	return nil
}

func saveSubject(key, object string) string { return filesSubjectPrefix + key + "." + object }

// writeChunks publishes a save's content, each chunk confirmed before the
// next. A save that fails midway removes what it wrote.
func (f *Files) writeChunks(ctx context.Context, key, object string, content []byte) (filesHead, error) {
	sum := sha256.Sum256(content)
	h := filesHead{Object: object, Size: int64(len(content)), SHA256: hex.EncodeToString(sum[:])}
	subject := saveSubject(key, object)
	for off := 0; off < len(content) || off == 0; off += filesChunk {
		end := min(off+filesChunk, len(content))
		ack, err := f.js.Publish(ctx, subject, content[off:end], jetstream.WithExpectStream(f.stream.CachedInfo().Config.Name))
		if err != nil {
			f.deleteSave(key, object)
			return filesHead{}, err
		}
		h.Seqs = append(h.Seqs, ack.Sequence)
		if end == len(content) {
			break
		}
	}
	return h, nil
}

// deleteSave removes a save's chunks once no pointer names them. A failure
// only leaves them behind.
func (f *Files) deleteSave(key, object string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := f.stream.Purge(ctx, jetstream.WithPurgeSubject(saveSubject(key, object))); err != nil {
		f.log.Warn("conversation files left behind", "key", key, "save", object, "err", err)
	}
}

// readChunks reads a save's content back and checks it whole. A chunk
// that is gone (the save was deleted after its pointer moved on) gives
// errSaveGone.
func (f *Files) readChunks(ctx context.Context, key string, h filesHead) ([]byte, error) {
	// The archive is larger than its files by its headers; the files'
	// own bound is checked as it is unpacked. This only keeps a garbled
	// pointer from asking for any amount of memory.
	if h.Size < 0 || h.Size > 2*f.maxBytes+1<<20 {
		return nil, fmt.Errorf("%w: save of %d bytes", ErrTooLarge, h.Size)
	}
	subject := saveSubject(key, h.Object)
	content := make([]byte, 0, h.Size)
	for _, seq := range h.Seqs {
		m, err := f.stream.GetMsg(ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return nil, errSaveGone
		}
		if err != nil {
			return nil, err
		}
		if m.Subject != subject {
			return nil, errSaveGone
		}
		content = append(content, m.Data...)
		if int64(len(content)) > h.Size {
			break
		}
	}
	sum := sha256.Sum256(content)
	if int64(len(content)) != h.Size || hex.EncodeToString(sum[:]) != h.SHA256 {
		return nil, fmt.Errorf("save %s does not match its size and SHA-256", h.Object)
	}
	return content, nil
}

var errSaveGone = errors.New("save deleted while read")

// head reads a session's pointer and its revision; ErrNotFound if none.
func (f *Files) head(ctx context.Context, key string) (filesHead, uint64, error) {
	e, err := f.heads.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return filesHead{}, 0, ErrNotFound
	}
	if err != nil {
		return filesHead{}, 0, err
	}
	var h filesHead
	if err := json.Unmarshal(e.Value(), &h); err != nil || h.Object == "" {
		return filesHead{}, 0, fmt.Errorf("unreadable files pointer %q", e.Value())
	}
	return h, e.Revision(), nil
}

// LoadFiles reads the session's last saved files and the token they were
// saved with; ErrNotFound if it has none.
func (f *Files) LoadFiles(ctx context.Context, sessionID string) ([]File, uint64, error) {
	key, err := ownerKey(sessionID)
	if err != nil {
		return nil, 0, err
	}
	// A reader slower than ReplacedGrace may find its save deleted: it
	// reads the pointer again.
	for range 5 {
		head, _, err := f.head(ctx, key)
		if errors.Is(err, ErrNotFound) {
			return nil, 0, fmt.Errorf("cluster: load files of session %q: %w", sessionID, ErrNotFound)
		}
		if err != nil {
			return nil, 0, fmt.Errorf("cluster: load files of session %q: %w", sessionID, err)
		}
		archive, err := f.readChunks(ctx, key, head)
		if errors.Is(err, errSaveGone) {
			if again, _, herr := f.head(ctx, key); herr == nil && again.Object != head.Object {
				continue
			}
			// Still the current save: lost, not replaced.
			return nil, 0, fmt.Errorf("cluster: load files of session %q: save %s has lost chunks", sessionID, head.Object)
		}
		if err != nil {
			return nil, 0, fmt.Errorf("cluster: load files of session %q: %w", sessionID, err)
		}
		files, err := untarFiles(archive, f.maxBytes)
		if err != nil {
			return nil, 0, fmt.Errorf("cluster: load files of session %q from save %s: %w", sessionID, head.Object, err)
		}
		return files, head.Token, nil
	}
	return nil, 0, fmt.Errorf("cluster: load files of session %q: saved over too often while reading", sessionID)
}

// DeleteFiles removes the session's files, every save of them (also those
// a failed save left behind), as when the session itself is deleted. It
// is not fenced: a former owner's late save can write the files again,
// which a deleted session's cleanup has to accept or sweep. Deleting a
// session with no files is not an error.
func (f *Files) DeleteFiles(ctx context.Context, sessionID string) error {
	key, err := ownerKey(sessionID)
	if err != nil {
		return err
	}
	// The pointer first, so that a reader finds nothing rather than a
	// save whose chunks are going.
	if err := f.heads.Purge(ctx, key); err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
		return fmt.Errorf("cluster: delete files of session %q: %w", sessionID, err)
	}
	if err := f.stream.Purge(ctx, jetstream.WithPurgeSubject(filesSubjectPrefix+key+".>")); err != nil {
		return fmt.Errorf("cluster: delete files of session %q: %w", sessionID, err)
	}
	return nil
}

// tarFiles writes files into one tar archive: a standard format an
// operator can open with tar, holding modes and any bytes.
func tarFiles(files []File) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, file := range files {
		hdr := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     file.Path,
			Mode:     int64(file.Mode.Perm()),
			Size:     int64(len(file.Data)),
			Format:   tar.FormatPAX,
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(file.Data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// untarFiles reads an archive tarFiles wrote, checking it as a save
// would: stored content is not trusted to be one.
func untarFiles(archive []byte, maxBytes int64) ([]File, error) {
	tr := tar.NewReader(bytes.NewReader(archive))
	files := []File{}
	var total int64
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		if hdr.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("entry %q is not a regular file", hdr.Name)
		}
		if err := checkPath(hdr.Name); err != nil {
			return nil, err
		}
		total += hdr.Size
		if hdr.Size < 0 || total > maxBytes {
			return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, maxBytes)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Path: hdr.Name, Mode: fs.FileMode(hdr.Mode).Perm(), Data: data})
	}
}
