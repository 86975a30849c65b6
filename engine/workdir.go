package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// OwnerDir is the name of owner's subtree under the work directory root.
// It is a hash, so that an owner's ID (an API key's ID) never becomes a
// path element, and two owners never share one.
func OwnerDir(owner string) string {
	sum := sha256.Sum256([]byte("hotplex owner\x00" + owner))
	return "o-" + hex.EncodeToString(sum[:8])
}

// resolveOwnedWorkDir resolves dir as resolveWorkDir does, but with a root
// and an owner the root is the owner's subtree <root>/<OwnerDir(owner)>,
// created on first use: the work directory root itself and other owners'
// trees are out of reach, symbolic links included.
func resolveOwnedWorkDir(root, owner, dir string) (string, error) {
	if root == "" || owner == "" {
		return resolveWorkDir(root, dir)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("%w: root %s: %w", ErrInvalidWorkDir, root, err)
	}
	tree := filepath.Join(realRoot, OwnerDir(owner))
	fi, err := os.Lstat(tree)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Mkdir(tree, 0o750); err != nil && !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("%w: create the owner's tree %s: %w", ErrInvalidWorkDir, tree, err)
		}
	case err != nil:
		return "", fmt.Errorf("%w: the owner's tree %s: %w", ErrInvalidWorkDir, tree, err)
	case !fi.IsDir():
		// A symbolic link here would lead the whole tree elsewhere.
		return "", fmt.Errorf("%w: the owner's tree %s is not a directory", ErrInvalidWorkDir, tree)
	}
	if dir != "" && filepath.IsAbs(dir) {
		// An absolute path written against the root as configured (which
		// may itself be a symlink) is re-based onto the owner's tree.
		if rel, err := filepath.Rel(filepath.Join(root, OwnerDir(owner)), dir); err == nil && isInside(rel) {
			dir = filepath.Join(tree, rel)
		}
	}
	return resolveWorkDir(tree, dir)
}

// resolveWorkDir returns the absolute, symlink-free work directory for dir.
// With a root, dir must stay inside it after cleaning and after resolving
// symbolic links, and a missing directory is created; without one, dir
// must already exist.
func resolveWorkDir(root, dir string) (string, error) {
	if root == "" {
		if dir == "" {
			return "", fmt.Errorf("%w: no work directory given", ErrInvalidWorkDir)
		}
		// The CLI files conversations under its real working directory,
		// so symbolic links are resolved for resume to find them again.
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return "", fmt.Errorf("%w: %w", ErrInvalidWorkDir, err)
		}
		abs, err := filepath.Abs(real)
		if err != nil {
			return "", fmt.Errorf("%w: %s: %w", ErrInvalidWorkDir, dir, err)
		}
		return existingDir(abs)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("%w: root %s: %w", ErrInvalidWorkDir, root, err)
	}
	realRoot, _ = filepath.Abs(realRoot)
	target := dir
	if target == "" {
		target = realRoot
	} else if !filepath.IsAbs(target) {
		target = filepath.Join(realRoot, target)
	} else if rel, err := filepath.Rel(root, target); err == nil && isInside(rel) {
		// An absolute path written against the root as configured (which
		// may itself be a symlink) is re-based onto the real root.
		target = filepath.Join(realRoot, rel)
	}
	target = filepath.Clean(target)
	if rel, err := filepath.Rel(realRoot, target); err != nil || !isInside(rel) {
		return "", fmt.Errorf("%w: %s is outside the work directory root %s", ErrInvalidWorkDir, dir, root)
	}
	if _, err := os.Lstat(target); os.IsNotExist(err) {
		// MkdirAll follows symbolic links: create nothing unless the part
		// of target that exists already resolves inside the root.
		if !existingPartInside(realRoot, target) {
			return "", fmt.Errorf("%w: %s leads outside the work directory root %s through a symbolic link", ErrInvalidWorkDir, dir, root)
		}
		if err := os.MkdirAll(target, 0o750); err != nil {
			return "", fmt.Errorf("%w: create %s: %w", ErrInvalidWorkDir, target, err)
		}
	}
	real, err := filepath.EvalSymlinks(target)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrInvalidWorkDir, dir, err)
	}
	if rel, err := filepath.Rel(realRoot, real); err != nil || !isInside(rel) {
		return "", fmt.Errorf("%w: %s leads outside the work directory root %s through a symbolic link", ErrInvalidWorkDir, dir, root)
	}
	return existingDir(real)
}

// existingPartInside reports whether the deepest existing ancestor of p,
// with symbolic links resolved, lies inside realRoot.
func existingPartInside(realRoot, p string) bool {
	for {
		if _, err := os.Lstat(p); err == nil {
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				return false
			}
			rel, err := filepath.Rel(realRoot, real)
			return err == nil && isInside(rel)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return false
		}
		p = parent
	}
}

func isInside(rel string) bool {
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func existingDir(p string) (string, error) {
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%w: work directory %s does not exist", ErrInvalidWorkDir, p)
	}
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalidWorkDir, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%w: %s is not a directory", ErrInvalidWorkDir, p)
	}
	return p, nil
}
