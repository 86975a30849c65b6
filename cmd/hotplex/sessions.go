package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
)

// apiClient talks to a running daemon.
type apiClient struct {
	url, key string
	http     *http.Client
}

func (c *apiClient) do(method, path string) ([]byte, error) {
	req, err := http.NewRequest(method, strings.TrimRight(c.url, "/")+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
			return nil, fmt.Errorf("%s: %s (%d)", e.Error.Code, e.Error.Message, resp.StatusCode)
		}
		return nil, fmt.Errorf("%s %s: %s", method, path, resp.Status)
	}
	return body, nil
}

func newSessionsCmd() *cobra.Command {
	c := &apiClient{http: &http.Client{Timeout: 30 * time.Second}}
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List, inspect and delete a daemon's sessions",
		PersistentPreRunE: func(*cobra.Command, []string) error {
			if c.key == "" {
				c.key = os.Getenv("HOTPLEX_API_KEY")
			}
			if c.key == "" {
				return fmt.Errorf("an API key is needed: --key or HOTPLEX_API_KEY")
			}
			return nil
		},
	}
	cmd.PersistentFlags().StringVar(&c.url, "url", "http://127.0.0.1:8080", "the daemon's address")
	cmd.PersistentFlags().StringVar(&c.key, "key", "", "API key (default $HOTPLEX_API_KEY)")
	var all bool
	list := &cobra.Command{
		Use: "list", Short: "List sessions", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path := "/v1/sessions"
			if all {
				path += "?all=true"
			}
			body, err := c.do("GET", path)
			if err != nil {
				return err
			}
			var l struct {
				Sessions []struct {
					ID, Key, Owner, Status, Provider string
					WorkDir                          string    `json:"work_dir"`
					PID                              int       `json:"pid"`
					UpdatedAt                        time.Time `json:"updated_at"`
					Stats                            *struct {
						Turns   int     `json:"turns"`
						CostUSD float64 `json:"total_cost_usd"`
					} `json:"stats"`
				} `json:"sessions"`
			}
			if err := json.Unmarshal(body, &l); err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			// With --all, IDs repeat across owners: the key (which an
			// admin key may use in place of the ID) tells them apart.
			head := "ID\tSTATUS\tPID\tTURNS\tCOST\tUPDATED\tWORK DIR"
			if all {
				head = "OWNER\tKEY\t" + head
			}
			fmt.Fprintln(tw, head)
			for _, s := range l.Sessions {
				turns, cost := 0, 0.0
				if s.Stats != nil {
					turns, cost = s.Stats.Turns, s.Stats.CostUSD
				}
				if all {
					fmt.Fprintf(tw, "%s\t%s\t", s.Owner, s.Key)
				}
				fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t$%.4f\t%s\t%s\n", s.ID, s.Status, s.PID, turns, cost, s.UpdatedAt.Local().Format(time.DateTime), s.WorkDir)
			}
			return tw.Flush()
		},
	}
	list.Flags().BoolVar(&all, "all", false, "every owner's sessions, with their keys (admin keys)")
	show := &cobra.Command{
		Use: "show ID", Short: "Show a session as JSON", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			body, err := c.do("GET", "/v1/sessions/"+args[0])
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(body)
			return err
		},
	}
	del := &cobra.Command{
		Use: "delete ID", Short: "End a session's processes and delete it", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := c.do("DELETE", "/v1/sessions/"+args[0])
			return err
		},
	}
	cmd.AddCommand(list, show, del)
	return cmd
}
